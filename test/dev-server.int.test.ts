import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "@/lib/db";

// `npm run dev` (scripts/dev.ts) as a developer starts it, on its own port and data folder and so on its own embedded
// PostgreSQL, changing nothing: the API answers through the same server as `npm start` (the direct dispatch, the
// family headers, the internal request id replaced), a page renders through Next's development server with the
// security headers and the stated development additions to its policy, and SIGTERM stops it all. Next.js allows one
// development server per checkout (`.next/dev/lock`): while a developer's own `npm run dev` runs, this test is
// skipped and says why.

// Not the test file's database: npm run dev starts its own.
const inherited = { ...process.env };
delete inherited.DATABASE_URL;
let dataDir = "";
let stopDev: (() => Promise<number | null>) | undefined;

afterAll(async () => {
  await stopDev?.();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The pid of the development server holding this checkout's `.next/dev/lock`, if one is running. */
function runningDevServer(): number | null {
  try {
    const { pid } = JSON.parse(readFileSync(".next/dev/lock", "utf8")) as { pid?: unknown };
    if (typeof pid !== "number") return null;
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

describe("npm run dev", () => {
  it("serves the API and a page as npm start does, with Next.js in development mode, and stops on SIGTERM", async (context) => {
    const holder = runningDevServer();
    if (holder !== null) context.skip(`a development server (pid ${holder}) runs in this checkout: stop it to run this test`);
    dataDir = await mkdtemp(path.join(tmpdir(), "ck-dev-"));
    // As root the embedded server runs as the `postgres` user (lib/db/embedded-postgres.ts), which must reach it.
    await chmod(dataDir, 0o755);
    const port = await freePort();
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/dev.ts"], {
      env: { ...inherited, NODE_ENV: "development", PORT: String(port), CHARTKEY_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    stopDev = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    };
    await new Promise<void>((resolve, reject) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(`Chartkey on http://localhost:${port}`)) resolve();
      };
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);
      void exited.then((code) => reject(new Error(`npm run dev exited with ${code} before serving:\n${output}`)));
    });
    expect(output).toContain(`Database: embedded PostgreSQL in ${dataDir}`);
    expect(output).toContain("Development mode");
    const origin = `http://127.0.0.1:${port}`;

    const health = await fetch(`${origin}/api/v1/health`, { headers: { "x-chartkey-request-id": "req_from_the_client" } });
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", checks: { database: "ok" } });
    expect(health.headers.get("service-version")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(health.headers.get("request-id")).toMatch(/^req_/);
    expect(health.headers.get("request-id")).not.toBe("req_from_the_client");
    expect(health.headers.get("x-content-type-options")).toBe("nosniff");

    // The first request of a page compiles it.
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<html");
    const policy = page.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(policy).toContain("'unsafe-eval'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");

    expect(await stopDev()).toBe(0);
    expect(output).toContain("Chartkey stopped.");
    // The embedded server stopped with it.
    expect(existsSync(path.join(dataDir, "postgres", "cluster", "postmaster.pid"))).toBe(false);
  }, 240_000);
});
