// drizzle-kit writes numbered SQL migrations from the schema; wrangler applies them. The tables live beside what owns
// them: each capability's in worker/features/<name>/tables.ts, the platform's in worker/platform/<module>/tables.ts.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: ["./worker/platform/*/tables.ts", "./worker/features/*/tables.ts"],
  out: "./migrations",
});
