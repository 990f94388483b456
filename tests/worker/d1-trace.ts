// Counts a request's sequential D1 round trips (issue 26): a D1 binding that records when each call starts and ends,
// and a fetch that marks when the AI is first called. Order only, never time: a call's depth is one more than the
// deepest call that had finished when it started, so calls made side by side (a batch, Promise.all) count once.
import { env } from "cloudflare:test";

type Op = { start: number; end: number | null; what: string };

export type D1Trace = {
  /** The binding to pass as `DB`. */
  db: D1Database;
  /** The sequential round trips started before the first AI request (all of them when there was none). */
  depthBeforeAi(): number;
  /** Whether the AI was called while watched. */
  calledAi(): boolean;
  /** Every call made to D1 (a batch counts once): the round trips, side by side or not. */
  calls(): number;
  /** What ran before the first AI request, one line per call with its depth (for failure messages). */
  describe(): string;
  /** Runs `fn` with the AI's requests marked (fetch to AI_BASE_URL). */
  watchAi<T>(fn: () => Promise<T>): Promise<T>;
};

export function traceD1(real: D1Database = env.DB): D1Trace {
  let clock = 0;
  const ops: Op[] = [];
  let aiAt: number | null = null;
  const unwrap = new WeakMap<object, D1PreparedStatement>();

  async function timed<T>(what: string, run: () => Promise<T>): Promise<T> {
    const op: Op = { start: ++clock, end: null, what };
    ops.push(op);
    try {
      return await run();
    } finally {
      op.end = ++clock;
    }
  }

  function statement(stmt: D1PreparedStatement, sql: string): D1PreparedStatement {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => statement(target.bind(...values), sql);
        if (prop === "first" || prop === "all" || prop === "run" || prop === "raw") {
          return (...args: unknown[]) => timed(sql.slice(0, 80), () => (target[prop] as (...a: unknown[]) => Promise<unknown>).apply(target, args));
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    unwrap.set(proxy, stmt);
    return proxy;
  }

  const db = new Proxy(real, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => statement(target.prepare(sql), sql);
      if (prop === "batch") {
        return (stmts: D1PreparedStatement[]) => timed(`batch of ${stmts.length}`, () => target.batch(stmts.map((s) => unwrap.get(s) ?? s)));
      }
      if (prop === "exec") return (sql: string) => timed(sql.slice(0, 80), () => target.exec(sql));
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });

  function depths(): number[] {
    const out: number[] = [];
    ops.forEach((op, i) => {
      let before = 0;
      for (let j = 0; j < i; j++) if (ops[j]!.end !== null && ops[j]!.end! < op.start) before = Math.max(before, out[j]!);
      out.push(before + 1);
    });
    return out;
  }

  const beforeAi = () => ops.map((op, i) => ({ op, i })).filter(({ op }) => aiAt === null || op.start < aiAt);

  return {
    db,
    depthBeforeAi() {
      const d = depths();
      return Math.max(0, ...beforeAi().map(({ i }) => d[i]!));
    },
    calledAi: () => aiAt !== null,
    calls: () => ops.length,
    describe() {
      const d = depths();
      return beforeAi()
        .map(({ op, i }) => `${d[i]}: ${op.what}`)
        .join("\n");
    },
    async watchAi(fn) {
      const realFetch = globalThis.fetch;
      const aiBase = env.AI_BASE_URL!;
      globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
        const url = input instanceof Request ? input.url : String(input);
        if (aiAt === null && url.startsWith(aiBase)) aiAt = ++clock;
        return realFetch(input, init);
      }) as typeof fetch;
      try {
        return await fn();
      } finally {
        globalThis.fetch = realFetch;
      }
    },
  };
}
