import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

// What a production build is made from; a newer file in any of these means the build is stale.
const BUILD_INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "fixtures",
  "proxy.ts",
  "mdx-components.tsx",
  "instrumentation-client.ts",
  "package.json",
  "package-lock.json",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
];
const IGNORED = new Set(["node_modules", ".next", ".data", "generated"]);

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  // A folder's own time changes when an entry is added, removed or renamed into it: a moved or deleted page keeps
  // (or leaves no) file time that is newer than the build, but its folder's is.
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) {
    if (IGNORED.has(child) || child.endsWith(".test.ts")) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

/** True when `.next` holds a production build newer than every source file it was built from. */
export function buildIsFresh(dir = process.cwd()): boolean {
  const buildId = path.join(dir, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return false;
  const builtAt = statSync(buildId).mtimeMs;
  return BUILD_INPUTS.every((input) => newestMtime(path.join(dir, input)) <= builtAt);
}
