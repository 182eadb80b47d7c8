import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { freePort, RUNTIME_FILE } from "@/lib/db";
import { eventually, running, serverPidOf, watchdogOf } from "@/test/embedded-processes";
import { launchPlatform, type LaunchedPlatform } from "@/test/launch-platform";

// `npm start` killed with SIGKILL (as the OOM killer does) while sandbox imports run, then started again with the
// same command and data folder: it must come up and the imports must finish. Twice: once with the embedded server
// left running as an orphan (its watchdog killed as well), once with only the launcher killed, when the watchdog
// stops the server so that no orphan remains even if nobody restarts.

type Session = { id: string; subject: string | null; simulation: { state: string } | null; sources: { recordCount: number | null }[] };

test("a platform killed mid-import restarts with the same command, and its imports finish", async () => {
  test.setTimeout(420_000);
  const port = await freePort();
  const dataDir = path.join(tmpdir(), `ck-e2e-crash-${Date.now()}`);
  const clusterDir = path.join(dataDir, "postgres", "cluster");
  const base = `http://127.0.0.1:${port}/api/v1`;
  let platform: LaunchedPlatform | undefined;
  let key = "";
  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} ${route}: ${await response.clone().text()}`).toBeLessThan(300);
    return response.json();
  };
  const start = async () => {
    platform = launchPlatform({ port, dataDir });
    await platform.ready;
    return platform;
  };
  // Simulations (two health systems each) started until at least `count` exist and an import is running right now:
  // on a fast machine one simulation's imports may finish before the next is asked for.
  const startImports = async (count: number): Promise<string[]> => {
    const url = (JSON.parse(readFileSync(path.join(dataDir, "postgres", RUNTIME_FILE), "utf8")) as { url: string }).url;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const importRunning = async () => Number((await client.query(`SELECT count(*) AS n FROM "SourceImport" WHERE status = 'running'`)).rows[0].n) > 0;
    const ids: string[] = [];
    try {
      while (ids.length < count || (ids.length < count + 5 && !(await importRunning()))) {
        const session = (await api("POST", "/connect/sessions", { categories: ["labs", "conditions", "medications", "vitals"] })) as Session;
        await api("POST", `/connect/sessions/${session.id}/simulate`, { scenario: "multi-source-overlap" });
        ids.push(session.id);
      }
      await eventually(importRunning, 60_000, "an import runs");
    } finally {
      await client.end();
    }
    return ids;
  };
  const expectFinished = async (ids: string[]) => {
    for (const id of ids) {
      await eventually(async () => ((await api("GET", `/connect/sessions/${id}`)) as Session).simulation?.state === "completed", 120_000, `simulation ${id} completes`);
      const session = (await api("GET", `/connect/sessions/${id}`)) as Session;
      expect(session.sources.length).toBe(2);
      for (const source of session.sources) expect(source.recordCount).toBeGreaterThan(0);
      const records = (await api("GET", `/users/${session.subject}/records`)) as { sections: Record<string, { records: unknown[] }> };
      expect(records.sections.labs!.records.length).toBeGreaterThan(0);
    }
  };

  try {
    const first = await start();
    key = /CK_SANDBOX_KEY=(ck_test_\S+)/.exec(first.output())![1]!;
    const firstImports = await startImports(3);

    // The worst case: the launcher and its watchdog both die, and the server runs on as an orphan.
    const orphan = (await serverPidOf(clusterDir))!;
    process.kill((await watchdogOf(orphan))!, "SIGKILL");
    first.child.kill("SIGKILL");
    await first.exited;
    expect(await running(orphan)).toBe(true);

    const second = await start();
    expect(await running(orphan)).toBe(false);
    expect(second.output()).toMatch(new RegExp(`"pid":${orphan},.*"msg":"stopping the PostgreSQL that a launcher which did not shut down left running"`));
    await expectFinished(firstImports);

    // The common case: only the launcher dies; its watchdog stops the server cleanly, with no restart needed.
    const secondImports = await startImports(2);
    const server = (await serverPidOf(clusterDir))!;
    second.child.kill("SIGKILL");
    await second.exited;
    await eventually(async () => !(await running(server)), 30_000, "the watchdog stops the server");
    expect(await serverPidOf(clusterDir)).toBeNull();

    const third = await start();
    await expectFinished(secondImports);
    third.child.kill("SIGTERM");
    expect(await third.exited).toBe(0);
  } finally {
    if (platform && platform.child.exitCode === null) platform.child.kill("SIGKILL");
    const left = await serverPidOf(clusterDir);
    if (left && (await running(left))) process.kill(left, "SIGQUIT");
    await rm(dataDir, { recursive: true, force: true });
  }
});
