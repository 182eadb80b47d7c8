import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildIsFresh } from "./build-freshness";

const EARLIER = new Date("2026-01-01T00:00:00Z");
const BUILT = new Date("2026-01-02T00:00:00Z");

function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "ck-freshness-"));
  mkdirSync(path.join(dir, "app", "settings"), { recursive: true });
  mkdirSync(path.join(dir, ".next"));
  writeFileSync(path.join(dir, "app", "settings", "page.tsx"), "export default 1;");
  writeFileSync(path.join(dir, "app", "layout.tsx"), "export default 1;");
  for (const entry of ["app/settings/page.tsx", "app/settings", "app/layout.tsx", "app"]) utimesSync(path.join(dir, entry), EARLIER, EARLIER);
  writeFileSync(path.join(dir, ".next", "BUILD_ID"), "build");
  utimesSync(path.join(dir, ".next", "BUILD_ID"), BUILT, BUILT);
  return dir;
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("buildIsFresh", () => {
  it("is fresh when every source is older than the build, and stale without a build", () => {
    const dir = project();
    made.push(dir);
    expect(buildIsFresh(dir)).toBe(true);
    rmSync(path.join(dir, ".next", "BUILD_ID"));
    expect(buildIsFresh(dir)).toBe(false);
  });

  it("is stale after a file is edited", () => {
    const dir = project();
    made.push(dir);
    writeFileSync(path.join(dir, "app", "layout.tsx"), "export default 2;");
    expect(buildIsFresh(dir)).toBe(false);
  });

  it("is stale after a file is moved (which keeps its old time) or deleted", () => {
    const moved = project();
    const deleted = project();
    made.push(moved, deleted);
    renameSync(path.join(moved, "app", "settings", "page.tsx"), path.join(moved, "app", "page.tsx"));
    expect(buildIsFresh(moved)).toBe(false);
    rmSync(path.join(deleted, "app", "layout.tsx"));
    expect(buildIsFresh(deleted)).toBe(false);
  });

  it("is stale after the request proxy (proxy.ts, beside app/) changes", () => {
    const dir = project();
    made.push(dir);
    writeFileSync(path.join(dir, "proxy.ts"), "export function proxy() {}");
    expect(buildIsFresh(dir)).toBe(false);
  });
});
