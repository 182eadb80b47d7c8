import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sourceImportJob } from "@/lib/imports";
import { startWorker, type RunningWorker } from "@/lib/jobs";
import { sandboxSimulationJob } from "@/lib/simulation";
import { startApiServer } from "@/test/api-server";
import { createTestApplication } from "@/test/factories";
import { serveSyntheticEhr } from "@/test/sandbox";

// The quickstart example (examples/quickstart/main.ts, the /docs/guides/quickstart page) run as a developer runs it:
// its own process, a sandbox key, the platform's HTTP server and a worker that completes the simulation.

serveSyntheticEhr();

let server: Awaited<ReturnType<typeof startApiServer>>;
let worker: RunningWorker;

beforeAll(async () => {
  server = await startApiServer();
  worker = await startWorker(process.env.DATABASE_URL!, [sandboxSimulationJob, sourceImportJob]);
});

afterAll(async () => {
  await worker?.stop();
  await server?.close();
});

it("connects a sandbox patient and prints a normalized medication record", async () => {
  const { sandboxKey } = await createTestApplication();
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "examples/quickstart/main.ts"], {
    env: { ...process.env, CK_SANDBOX_KEY: sandboxKey, CHARTKEY_API_URL: `${server.origin}/api/v1` },
    timeout: 60_000,
  });
  expect(stdout).toMatch(/^Connect session cs_\w+$/m);
  expect(stdout).toMatch(/^Connected subject u_\w+$/m);
  const count = Number(/^Read (\d+) medications; saved cursor /m.exec(stdout)?.[1]);
  expect(count).toBeGreaterThan(0);
  // The first record, as JSON: a normalized medication with its stable id and provenance.
  const record = JSON.parse(stdout.slice(stdout.indexOf("{"))) as { recordId: string; category: string; sources: unknown[] };
  expect(record.recordId).toMatch(/^rec_/);
  expect(record.category).toBe("medications");
  expect(record.sources.length).toBeGreaterThan(0);
});
