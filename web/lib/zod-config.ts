// Zod asks once whether it may compile validators with `new Function`. Under the app's CSP (no 'unsafe-eval') the
// browser blocks that probe and reports a `securitypolicyviolation` on every page that validates a form, noise that
// hides a real injection. `jitless` skips the probe: the same checks, interpreted. Imported first by main.tsx.
//
// Zod keeps its settings in `globalThis.__zod_globalConfig` (what `config()` from zod/v4/core writes). Setting it
// here rather than importing zod keeps zod out of the entry chunk (3.7 KB gzip); tests/web/zod-config.test.ts
// checks that zod reads it.
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = Object.assign(holder.__zod_globalConfig ?? {}, { jitless: true });

export {};
