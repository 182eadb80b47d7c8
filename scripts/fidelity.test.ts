import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");

describe("npm run fidelity", () => {
  it("prints the fidelity report of a Bundle: records by category, skips by type and reason, context", () => {
    const output = execFileSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/fidelity.ts", "fixtures/fidelity/carin-bb-examples.json"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(output).toContain("# fixtures/fidelity/carin-bb-examples.json");
    expect(output).toContain("  claims: 2\n");
    expect(output).toContain("  demographics: 1\n");
    expect(output).toMatch(/context \(not records; read through references\):\n {2}Organization: 2\n {2}Practitioner: 1\n/);
  }, 60_000);
});
