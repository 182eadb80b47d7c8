import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { sandboxSimulationJob } from "@/lib/simulation";
import { sourceImportJob } from "@/lib/imports";
import { startWorker } from "@/lib/jobs";
import { stopSender } from "@/lib/queue";
import { createTestApplication } from "@/test/factories";
import { createSession, getSession, serveSyntheticEhr, simulate } from "@/test/sandbox";

serveSyntheticEhr();

describe("the simulation continues in the sandbox-simulation job after the response", () => {
  it("multi-source-overlap: simulate answers completed/importing; a worker attaches and imports both sources, then completed; polling simulation.state sees it", async () => {
    const worker = await startWorker(process.env.DATABASE_URL as string, [sandboxSimulationJob, sourceImportJob]);
    try {
      const { sandboxKey } = await createTestApplication();
      const session = await createSession(sandboxKey);
      const simulated = await simulate(sandboxKey, session.id, { scenario: "multi-source-overlap" });
      expect(simulated.body).toMatchObject({ status: "completed", simulation: { state: "importing" } });
      const states = new Set<string>();
      const deadline = Date.now() + 30_000;
      let current = await getSession(sandboxKey, session.id);
      while (current.simulation?.state !== "completed" && current.simulation?.state !== "failed" && Date.now() < deadline) {
        states.add(current.simulation!.state);
        await sleep(200);
        current = await getSession(sandboxKey, session.id);
      }
      expect(current.simulation).toEqual({ scenario: "multi-source-overlap", state: "completed", failureCode: null });
      expect(current.sources.map((source) => [source.providerId, source.status])).toEqual([["lakeshore-health", "synced"], ["prairie-ridge", "synced"]]);
      expect([...states].every((state) => state === "importing")).toBe(true);
    } finally {
      await worker.stop();
      await stopSender();
    }
  }, 60_000);
});
