// Zod asks once whether it may compile validators with `new Function`. Under the app's CSP (no 'unsafe-eval') the
// browser blocks that probe and reports a `securitypolicyviolation` on every page that validates a form, noise that
// hides a real injection. `jitless` skips the probe: the same checks, interpreted. Imported first by main.tsx.
import { config } from "zod/v4/core";

config({ jitless: true });
