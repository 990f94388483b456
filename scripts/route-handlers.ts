// How long the route handlers are (issue 40: thin routes): every `.get/.post/.put/.patch/.delete(...)` handler in
// worker/features/**/*routes.ts, measured in lines from its first to its last.
// Usage: tsx scripts/route-handlers.ts [how many, default 10]   (prints the longest; exit 0)
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

export type RouteHandler = { file: string; method: string; path: string; line: number; lines: number };

const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

/** The handlers of one routes file: the last argument of each method call on a chain, when it is a function. */
export function handlersIn(file: string, source: string): RouteHandler[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: RouteHandler[] = [];
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && METHODS.has(node.expression.name.text)) {
      const handler = node.arguments.at(-1);
      const path = node.arguments[0];
      if (handler && (ts.isArrowFunction(handler) || ts.isFunctionExpression(handler))) {
        const start = lineOf(handler.getStart(sf));
        found.push({
          file,
          method: node.expression.name.text.toUpperCase(),
          path: path && ts.isStringLiteralLike(path) ? path.text : "?",
          line: start,
          lines: lineOf(handler.getEnd()) - start + 1,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return routeFiles(path);
    return /routes\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every route handler below `root` (worker/features), the longest first. */
export function routeHandlers(root = "worker/features"): RouteHandler[] {
  return routeFiles(root)
    .flatMap((file) => handlersIn(relative(process.cwd(), file), readFileSync(file, "utf8")))
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const most = Number(process.argv[2] ?? 10);
  const all = routeHandlers();
  console.log(`${all.length} route handlers; the longest ${Math.min(most, all.length)}:`);
  for (const h of all.slice(0, most)) console.log(`${String(h.lines).padStart(4)}  ${h.method} ${h.path}  ${h.file}:${h.line}`);
}
