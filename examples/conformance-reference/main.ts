// Runs the reference integration against a Chartkey deployment: `npx tsx examples/conformance-reference/main.ts`
// with CHARTKEY_API (default http://localhost:3000/api/v1), CHARTKEY_RUN_KEY (a run's run_key) and
// CHARTKEY_SIGNING_SECRET (the application's whsec_ secret); WEBHOOK_PORT (default 4400) is where it receives
// webhooks, POLL_INTERVAL_MS (default 0: webhooks only) how often it also polls, SYNC_MODE (one-time or
// continuous) what a poll reads. It prints the run's phases as they go and its verdict at the end (README.md).
import { ReferenceIntegration } from "./integration";

const apiBase = process.env.CHARTKEY_API ?? "http://localhost:3000/api/v1";
const apiKey = process.env.CHARTKEY_RUN_KEY;
const signingSecret = process.env.CHARTKEY_SIGNING_SECRET;
const runId = process.env.CHARTKEY_RUN_ID;
if (!apiKey || !signingSecret) {
  console.error("Set CHARTKEY_RUN_KEY (the run's run_key) and CHARTKEY_SIGNING_SECRET (the application's whsec_ secret).");
  process.exit(2);
}

const integration = new ReferenceIntegration({
  apiBase,
  apiKey,
  signingSecret,
  port: Number(process.env.WEBHOOK_PORT ?? "4400"),
  pollIntervalMs: Number(process.env.POLL_INTERVAL_MS ?? "0"),
  syncMode: process.env.SYNC_MODE === "continuous" ? "continuous" : "one-time",
});
const webhookUrl = await integration.start();
console.log(`Receiving webhooks at ${webhookUrl} (the application's webhook URL must point here).`);
const session = await integration.connect();
console.log(`Connect session ${session.id} created.`);

if (runId) {
  let phase = "";
  for (;;) {
    const response = await fetch(`${apiBase}/conformance/runs/${runId}`, { headers: { authorization: `Bearer ${apiKey}` } });
    const run = (await response.json()) as { status: string; phase: string; waitingFor: string | null; verdict: string | null; checks: { id: string; status: string; summary: string }[]; links: { reportPage: string } };
    if (run.phase !== phase) console.log(`phase: ${(phase = run.phase)}${run.waitingFor ? ` (${run.waitingFor})` : ""}`);
    if (run.status !== "open") {
      for (const check of run.checks) console.log(`  ${check.status.padEnd(12)} ${check.id}: ${check.summary}`);
      console.log(`verdict: ${run.verdict ?? run.status}. Report: ${run.links.reportPage}`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  await integration.stop();
}
