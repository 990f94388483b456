// A libSQL server on loopback for the worker tests: the Hrana-over-HTTP v2 protocol (what `@libsql/client/web`
// speaks to Turso) in front of a real libSQL engine (the native `libsql` engine on a `file:` database in a temp
// folder, migrated with the real migrations). Only the framing is ours; every statement runs in libSQL.
import { createClient, type InArgs, type InValue } from '@libsql/client';
import Database from 'libsql';

type Engine = InstanceType<typeof Database>;
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyLibsqlMigrations } from '../../scripts/db-migrate';
import { listen, readBody, sendJson } from './http-helpers';

type Value = { type: 'null' } | { type: 'integer'; value: string } | { type: 'float'; value: number } | { type: 'text'; value: string } | { type: 'blob'; base64: string };
type Stmt = { sql?: string; sql_id?: number; args?: Value[]; named_args?: { name: string; value: Value }[] };
type Cond = { type: 'ok' | 'error'; step: number } | { type: 'not'; cond: Cond } | { type: 'and' | 'or'; conds: Cond[] };
type StreamRequest = { type: 'close' } | { type: 'execute'; stmt: Stmt } | { type: 'batch'; batch: { steps: { condition?: Cond | null; stmt: Stmt }[] } } | { type: 'sequence'; sql: string } | { type: string };

function fromValue(v: Value): InValue {
  switch (v.type) {
    case 'integer': {
      const n = BigInt(v.value);
      return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
    }
    case 'float':
      return v.value;
    case 'text':
      return v.value;
    case 'blob':
      return Buffer.from(v.base64, 'base64');
    default:
      return null;
  }
}

function toValue(v: unknown): Value {
  if (v === null || v === undefined) return { type: 'null' };
  if (typeof v === 'bigint') return { type: 'integer', value: v.toString() };
  if (typeof v === 'number') return Number.isInteger(v) ? { type: 'integer', value: String(v) } : { type: 'float', value: v };
  if (v instanceof ArrayBuffer) return { type: 'blob', base64: Buffer.from(v).toString('base64') };
  return { type: 'text', value: String(v) };
}

function args(stmt: Stmt): InArgs {
  if (stmt.named_args?.length) return Object.fromEntries(stmt.named_args.map((a) => [a.name.replace(/^[:@$]/, ''), fromValue(a.value)]));
  return (stmt.args ?? []).map(fromValue);
}

/** One statement in the engine (the native libSQL database, so transaction control works as on a server). */
function run(db: Engine, stmt: Stmt, stored: Map<number, string>) {
  const prepared = db.prepare(stmt.sql ?? stored.get(stmt.sql_id ?? -1) ?? '');
  const bound = args(stmt);
  if (prepared.reader) {
    const cols = prepared.columns() as { name: string; type: string | null }[];
    const rows = prepared.raw(true).all(bound) as unknown[][];
    return { cols: cols.map((c) => ({ name: c.name, decltype: c.type })), rows: rows.map((r) => r.map(toValue)), affected_row_count: 0, last_insert_rowid: null };
  }
  const info = prepared.run(bound) as { changes: number; lastInsertRowid: number | bigint };
  return { cols: [], rows: [], affected_row_count: info.changes, last_insert_rowid: String(info.lastInsertRowid) };
}

const error = (e: unknown) => ({ message: e instanceof Error ? e.message : String(e), code: (e as { code?: string }).code ?? 'UNKNOWN' });

async function handle(db: Engine, req: StreamRequest, stored: Map<number, string>): Promise<unknown> {
  const ok = (response: unknown) => ({ type: 'ok', response });
  try {
    if (req.type === 'close') return ok({ type: 'close' });
    if (req.type === 'store_sql') {
      const { sql_id, sql } = req as unknown as { sql_id: number; sql: string };
      stored.set(sql_id, sql);
      return ok({ type: 'store_sql' });
    }
    if (req.type === 'close_sql') {
      stored.delete((req as unknown as { sql_id: number }).sql_id);
      return ok({ type: 'close_sql' });
    }
    if (req.type === 'sequence') {
      db.exec((req as { sql: string }).sql);
      return ok({ type: 'sequence' });
    }
    if (req.type === 'execute') {
      const { stmt } = req as { stmt: Stmt };
      return ok({ type: 'execute', result: run(db, stmt, stored) });
    }
    if (req.type === 'batch') {
      const { steps } = (req as { batch: { steps: { condition?: Cond | null; stmt: Stmt }[] } }).batch;
      const results: unknown[] = [];
      const errors: unknown[] = [];
      const holds = (c: Cond): boolean =>
        c.type === 'ok' ? results[c.step] != null
        : c.type === 'error' ? errors[c.step] != null
        : c.type === 'not' ? !holds(c.cond)
        : c.type === 'and' ? c.conds.every(holds)
        : c.type === 'or' ? c.conds.some(holds)
        : false;
      for (const step of steps) {
        if (step.condition && !holds(step.condition)) {
          results.push(null);
          errors.push(null);
          continue;
        }
        try {
          results.push(run(db, step.stmt, stored));
          errors.push(null);
        } catch (e) {
          results.push(null);
          errors.push(error(e))
        }
      }
      return ok({ type: 'batch', result: { step_results: results, step_errors: errors } });
    }
    return { type: 'error', error: { message: `not supported here: ${req.type}`, code: 'NOT_SUPPORTED' } };
  } catch (e) {
    return { type: 'error', error: error(e) };
  }
}

/** The statements a request runs (a batch's steps), the transaction's own BEGIN/COMMIT/ROLLBACK not counted. */
function statementsIn(r: StreamRequest): number {
  const own = (stmt: Stmt) => (/^\s*(BEGIN|COMMIT|ROLLBACK|END)\b/i.test(stmt.sql ?? '') ? 0 : 1);
  if (r.type === 'execute') return own((r as { stmt: Stmt }).stmt);
  if (r.type === 'batch') return (r as { batch: { steps: { stmt: Stmt }[] } }).batch.steps.reduce((n, step) => n + own(step.stmt), 0);
  return 0;
}

export interface LibsqlServer {
  /** The LIBSQL_URL to give the worker. */
  url: string;
  /** Round trips (pipeline requests) and the statements they ran, BEGIN/COMMIT left out, since the start (the bench counts a scan's). */
  counts(): { roundTrips: number; statements: number };
  reset(): void;
  close(): Promise<void>;
}

export async function startLibsqlServer(port = 0): Promise<LibsqlServer> {
  const dir = mkdtempSync(join(tmpdir(), 'porchlight-libsql-server-'));
  const file = join(dir, 'data.db');
  const migrator = createClient({ url: `file:${file}` });
  await applyLibsqlMigrations(migrator);
  migrator.close();
  const engine = new Database(file);
  engine.exec('PRAGMA foreign_keys = ON');
  // One engine connection: pipelines run one after another, so a batch's BEGIN…COMMIT is never interleaved.
  let queue: Promise<unknown> = Promise.resolve();
  const counted = { roundTrips: 0, statements: 0 };
  const streams = new Map<string, Map<number, string>>();
  const running = await listen(port, async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'POST' || path !== '/v2/pipeline') return sendJson(res, 404, { message: 'Hrana v2 pipeline only' });
    const body = JSON.parse(await readBody(req)) as { baton: string | null; requests: StreamRequest[] };
    counted.roundTrips++;
    for (const r of body.requests) counted.statements += statementsIn(r);
    // A stream (its baton) keeps the SQL texts the client stored on it for the batches that follow.
    const baton = body.baton ?? crypto.randomUUID();
    const stored = streams.get(baton) ?? new Map<number, string>();
    streams.set(baton, stored);
    const run = queue.then(async () => {
      const results = [];
      for (const r of body.requests) results.push(await handle(engine, r, stored));
      return results;
    });
    queue = run.catch(() => undefined);
    const results = await run;
    const closed = body.requests.some((r) => r.type === 'close');
    if (closed) streams.delete(baton);
    sendJson(res, 200, { baton: closed ? null : baton, base_url: null, results });
  });
  return {
    url: running.origin,
    counts: () => ({ ...counted }),
    reset() {},
    async close() {
      await running.close();
      engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
