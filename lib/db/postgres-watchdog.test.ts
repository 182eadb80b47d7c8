import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { running, watchdogOf } from "@/test/embedded-processes";

describe("the PostgreSQL watchdog", () => {
  it("signals nothing when the pid it watches no longer runs a PostgreSQL on its cluster (the server died first, its pid reused)", async () => {
    const other = spawn("sleep", ["300"], { stdio: "ignore" });
    const launcher = spawn(process.execPath, ["--import", "tsx", "test/hold-watchdog.ts", String(other.pid), "/nonexistent/cluster"], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      await new Promise<void>((resolve) => launcher.stdout.once("data", () => resolve()));
      const watchdog = await watchdogOf(other.pid!);
      expect(watchdog).not.toBeNull();
      launcher.kill("SIGKILL");
      for (let waited = 0; waited < 5_000 && (await running(watchdog!)); waited += 100) await sleep(100);
      expect(await running(watchdog!)).toBe(false);
      expect(await running(other.pid!)).toBe(true);
    } finally {
      launcher.kill("SIGKILL");
      other.kill("SIGKILL");
    }
  }, 30_000);
});
