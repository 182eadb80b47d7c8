import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeFailure, LOG_BATCH_BYTES } from "./log";

describe("describeFailure", () => {
  it("names the error and each cause, and never prints a bare undefined", () => {
    const root = new Error("lock file already exists");
    const text = describeFailure(new Error("PostgreSQL did not start", { cause: root }));
    expect(text).toMatch(/^Error: PostgreSQL did not start\n/);
    expect(text).toContain("caused by: Error: lock file already exists");
    expect(describeFailure(undefined)).toBe("a failure without any detail (undefined was thrown)");
    expect(describeFailure("boom")).toBe("a non-error value was thrown: boom");
    expect(describeFailure(new Error("outer", { cause: "inner text" }))).toContain("caused by: a non-error value was thrown: inner text");
  });
});

describe("the log's destination", () => {
  it("holds lines until 4 KiB have gathered or 100 ms have passed, and writes what it holds when the process exits", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "ck-log-"));
    const output = path.join(dir, "stdout.log");
    const script = path.join(dir, "child.mts");
    // The child blocks its event loop (so no timer of its own can run) and reads how much reached its stdout file:
    // a line written on its own would be written meanwhile by libuv's thread pool; a held line is not.
    await writeFile(
      script,
      `import { statSync } from "node:fs";
       import { log, LOG_BATCH_BYTES } from ${JSON.stringify(path.resolve("lib/log.ts"))};
       const block = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
       const size = () => statSync(${JSON.stringify(output)}).size;
       const seen: Record<string, number> = {};
       log.info({ n: 1 }, "held");
       block(300);
       seen.whileHeld = size();
       await new Promise((resolve) => setTimeout(resolve, 300));
       seen.afterInterval = size();
       for (let n = 0; n * 100 < LOG_BATCH_BYTES; n += 1) log.info({ n, pad: "x".repeat(100) }, "batch");
       block(300);
       seen.afterBatch = size();
       log.info({ n: 2 }, "last");
       process.stderr.write(JSON.stringify(seen));
       process.exit(0);`,
    );
    const fd = openSync(output, "w");
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: process.cwd(), env: { ...process.env, LOG_LEVEL: "info" }, stdio: ["ignore", fd, "pipe"] });
    closeSync(fd);
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, "exit")) as [number];
    expect(code, stderr).toBe(0);
    const seen = JSON.parse(stderr) as { whileHeld: number; afterInterval: number; afterBatch: number };
    const lines = (await readFile(output, "utf8")).trim().split("\n").map((line) => JSON.parse(line) as { msg: string });
    await rm(dir, { recursive: true, force: true });

    expect(seen.whileHeld).toBe(0);
    expect(seen.afterInterval).toBeGreaterThan(0);
    expect(seen.afterBatch).toBeGreaterThan(seen.afterInterval + LOG_BATCH_BYTES);
    expect(lines.map((line) => line.msg)).toEqual(["held", ...lines.slice(1, -1).map(() => "batch"), "last"]);
    expect(lines.length).toBeGreaterThan(2 + LOG_BATCH_BYTES / 200);
  }, 30_000);
});
