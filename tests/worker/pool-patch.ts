// The worker tests share one workerd per vitest worker (`isolate: false`): loading the worker's module graph costs
// 10–20 s, and paying it once per worker rather than once per file took the suite from 739 s to 396 s.
//
// @cloudflare/vitest-pool-workers 0.15 wraps the module runner's transport once more for every file a worker runs
// (vitest hands the same runner over again when files are not isolated), so imports slow down file after file until
// the run stalls. Fixed upstream in the renamed @cloudflare/vitest-plugin 1.4.5 (workers-sdk#16135), which needs
// wrangler 4.151 and so Node 22. Until the project moves to Node 22, this applies the same one-line fix (patch the
// runner once) to the installed copy, idempotently. When the installed file does not have the expected text (another
// version), nothing is patched and the tests run isolated, as before: slower, never wrong.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const MARK = "__porchlightPatchedOnce";
const BEFORE = `				if (runner.transport?.invoke) {
					const originalInvoke`;
const AFTER = `				if (runner.${MARK}) return;
				if (runner.transport?.invoke) {
					runner.${MARK} = true;
					const originalInvoke`;

/**
 * Replaces `before` with `after` (which holds `mark`) in the installed pool's file `path`, once: true when the file
 * has the fix now; false, with a warning saying what that costs, when it is missing or another version.
 */
function patchInstalledPool(path: string, mark: string, before: string, after: string, withoutIt: string): boolean {
  // The package exports no package.json to resolve: the project's own install.
  const file = join(process.cwd(), "node_modules/@cloudflare/vitest-pool-workers/dist/worker", path);
  if (!existsSync(file)) return false;
  const source = readFileSync(file, "utf8");
  if (source.includes(mark)) return true;
  const at = source.indexOf(before);
  if (at < 0 || source.indexOf(before, at + 1) >= 0) {
    console.warn(`[worker tests] vitest-pool-workers is not the version pool-patch.ts knows: ${withoutIt}`);
    return false;
  }
  writeFileSync(file, source.replace(before, after));
  return true;
}

/** True when the installed pool patches each module runner once (so files can share a worker). */
export function patchPoolOncePerRunner(): boolean {
  return patchInstalledPool("index.mjs", MARK, BEFORE, AFTER, "test files run isolated (slower)");
}

// The same pool wraps its entrypoint class's prototype in one more Proxy every time workerd constructs it, which is
// every request through SELF: after n requests each property read runs n nested traps, so request 300 of a file took
// about eight times as long as the first (a sweep of 1,300 requests: over 400 s). Reported as workers-sdk#15092 and
// fixed upstream (workers-sdk#15106: install the proxy once) in a version that needs Node 22; the same guard here.
const PROXY_BEFORE = `	function Class(...args) {
		Class.prototype = new Proxy(Class.prototype, {`;
const PROXY_AFTER = `	let ${MARK}Proxy = false;
	function Class(...args) {
		if (!${MARK}Proxy) ${MARK}Proxy = true, Class.prototype = new Proxy(Class.prototype, {`;

/** True when the installed pool wraps its entrypoint prototypes once (requests through SELF stay as fast as the first). */
export function patchWrapperProxyOnce(): boolean {
  return patchInstalledPool("lib/cloudflare/test-internal.mjs", `${MARK}Proxy`, PROXY_BEFORE, PROXY_AFTER, "requests through SELF slow down as a file goes on");
}
