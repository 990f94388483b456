// Before each test file: the real migrations on the test D1, then every table and the R2 bucket emptied. Files share
// a workerd (and its D1) with the files that ran before them in the same vitest worker (vitest.config.ts:
// `isolate: false`), so each starts from the empty, migrated database it would have had on its own.
import { applyD1Migrations, env } from "cloudflare:test";
import { newTestFile } from "./helpers";
import { forgetBrand } from "../../worker/platform/brand/load";
import { forgetPages, forgetVersion } from "../../worker/features/reports/shared-cache";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

const { results } = await env.DB.prepare(
  // fts5's shadow tables are emptied through their virtual table (prospects_fts), never directly.
  "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name <> 'd1_migrations' and name not like '%_fts_%'",
).all<{ name: string }>();
if (results.length) {
  // One batch is one transaction: foreign keys are checked at its end, when every table is empty.
  await env.DB.batch([
    env.DB.prepare("pragma defer_foreign_keys = on"),
    ...results.map(({ name }) => env.DB.prepare(`delete from "${name.replace(/"/g, '""')}"`)),
  ]);
}

// R2 too: a file's stored objects (logos, PDFs, answers) are not the next file's.
for (let cursor: string | undefined; ; ) {
  const listed = await env.FILES.list({ cursor, limit: 1000 });
  if (listed.objects.length) await env.FILES.delete(listed.objects.map((o) => o.key));
  if (!listed.truncated) break;
  cursor = listed.cursor;
}

// What this isolate remembers of the last file's database: its helpers' users, the brand, shared pages' versions.
newTestFile();
forgetBrand();
forgetPages();
forgetVersion();
