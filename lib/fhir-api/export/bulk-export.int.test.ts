import type { FhirResource, OperationOutcome } from "fhir/r4";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantReceipt, revokeReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import type { Category } from "@/lib/records";
import { issueCredential } from "@/test/agents";
import { startApiServer } from "@/test/api-server";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { validateFhirResource } from "@/test/fhir-validate";
import { importScenario } from "@/test/records";
import { expireFhirExports } from "./expire-exports";
import { runFhirExport, type RunExportOptions } from "./run-export";

let server: Awaited<ReturnType<typeof startApiServer>>;
beforeAll(async () => {
  server = await startApiServer();
  // Compiling HL7's R4 JSON schema is most of this file's time (10-15 s on a loaded machine): done once, up front.
  validateFhirResource({ resourceType: "Patient" });
}, 90_000);
afterAll(async () => server.close());

const ALL: Category[] = ["demographics", "conditions", "medications", "allergies", "immunizations", "labs", "vitals", "procedures", "documents", "claims"];
const errorCode = (outcome: OperationOutcome) => outcome.issue[0]?.details?.coding?.[0]?.code;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An application with two sandbox subjects sharing every category, each with a sandbox scenario's records imported. */
async function population(granted: Category[] = ALL) {
  const app = await createTestApplication({ categoryAllowlist: ALL });
  const subjects = [];
  for (const scenario of ["baseline-adult", "multi-source-overlap"]) {
    const subject = await createTestSubject(app.application.id);
    const receipt = await grantReceipt({ applicationId: app.application.id, environment: "sandbox", subjectId: subject.id, categories: granted });
    await importScenario(subject.id, scenario);
    subjects.push({ id: subject.id, patient: subject.id.replace("u_", "u-"), receipt });
  }
  return { ...app, subjects: subjects.sort((a, b) => (a.id < b.id ? -1 : 1)) };
}

// --- A Bulk Data client, written from the IG (https://hl7.org/fhir/uv/bulkdata/export.html) alone. ---

async function kickOff(key: string, path: string, headers: Record<string, string> = { Prefer: "respond-async" }) {
  const response = await fetch(`${server.origin}/api/v1/fhir/${path}`, { headers: { Authorization: `Bearer ${key}`, Accept: "application/fhir+json", ...headers } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as OperationOutcome };
}

async function poll(key: string, statusUrl: string) {
  const response = await fetch(statusUrl, { headers: { Authorization: `Bearer ${key}`, Accept: "application/json" } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

type Manifest = { transactionTime: string; request: string; requiresAccessToken: boolean; output: { type: string; url: string; count: number }[]; error: unknown[] };

/** Polls the status URL, waiting Retry-After between attempts, until the manifest; returns it. */
async function awaitManifest(key: string, statusUrl: string): Promise<Manifest> {
  for (let attempt = 0; attempt < 60; attempt++) {
    const status = await poll(key, statusUrl);
    if (status.status === 200) return status.body as unknown as Manifest;
    expect(status.status).toBe(202);
    expect(status.headers.get("x-progress")).toBeTruthy();
    const retryAfter = Number(status.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    await sleep(retryAfter * 1000);
  }
  throw new Error("the export did not finish");
}

/** Downloads every manifest file with the key and parses the ndjson; returns the resources per file type. */
async function download(key: string, manifest: Manifest): Promise<Map<string, FhirResource[]>> {
  const byType = new Map<string, FhirResource[]>();
  for (const file of manifest.output) {
    const response = await fetch(file.url, { headers: { Authorization: `Bearer ${key}`, Accept: "application/fhir+ndjson" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/fhir+ndjson");
    const lines = (await response.text()).split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(file.count);
    const resources = lines.map((line) => JSON.parse(line) as FhirResource);
    for (const resource of resources) expect(resource.resourceType).toBe(file.type);
    byType.set(file.type, [...(byType.get(file.type) ?? []), ...resources]);
  }
  return byType;
}

/** What the worker does: runs the export the kick-off queued (the export id is the status URL's last segment). */
const work = (statusUrl: string, options?: RunExportOptions) => runFhirExport(statusUrl.slice(statusUrl.lastIndexOf("/") + 1), options);

/** A whole export: kick-off, the worker, polling, the manifest. */
async function exportAll(key: string, path: string, options?: RunExportOptions) {
  const started = await kickOff(key, path);
  expect(started.status).toBe(202);
  const statusUrl = started.headers.get("content-location")!;
  await work(statusUrl, options);
  return { statusUrl, manifest: await awaitManifest(key, statusUrl) };
}

const patientsOf = (resources: Map<string, FhirResource[]>) => new Set((resources.get("Patient") ?? []).map((patient) => patient.id));
const subjectsIn = (resources: Map<string, FhirResource[]>) =>
  new Set(
    [...resources.values()].flat().flatMap((resource) => {
      const reference = (resource as { subject?: { reference?: string }; patient?: { reference?: string } }).subject?.reference ?? (resource as { patient?: { reference?: string } }).patient?.reference;
      return reference?.startsWith("Patient/") ? [reference.slice(8)] : [];
    }),
  );

describe("FHIR Bulk Data export (issue 52, point 2)", () => {
  it("exports the consented population: 202 and Content-Location, 202 with X-Progress and Retry-After while it runs, a manifest of ndjson files whose every resource validates", async () => {
    const { sandboxKey, subjects } = await population();
    const started = await kickOff(sandboxKey, "$export?_outputFormat=application/fhir%2Bndjson");
    expect(started.status).toBe(202);
    expect(started.headers.get("request-id")).toMatch(/^req_/);
    const statusUrl = started.headers.get("content-location")!;
    expect(statusUrl).toMatch(/\/api\/v1\/fhir\/\$export-status\/fhx_/);

    const queued = await poll(sandboxKey, statusUrl);
    expect(queued.status).toBe(202);
    expect(queued.headers.get("x-progress")).toBeTruthy();
    expect(queued.headers.get("retry-after")).toBe("1");

    const running = work(statusUrl);
    const manifest = await awaitManifest(sandboxKey, statusUrl);
    await running;
    expect(manifest).toMatchObject({ requiresAccessToken: true, error: [], request: expect.stringContaining("/api/v1/fhir/$export") });
    expect(Date.parse(manifest.transactionTime)).not.toBeNaN();
    const resources = await download(sandboxKey, manifest);
    expect(patientsOf(resources)).toEqual(new Set(subjects.map((subject) => subject.patient)));
    expect(subjectsIn(resources)).toEqual(new Set(subjects.map((subject) => subject.patient)));
    for (const type of ["Observation", "Condition", "MedicationRequest", "AllergyIntolerance"]) expect(resources.get(type)?.length ?? 0).toBeGreaterThan(0);
    const invalid = [...resources.values()].flat().flatMap((resource) => {
      const result = validateFhirResource(resource);
      return result.valid ? [] : [{ id: resource.id, errors: result.errors }];
    });
    expect(invalid).toEqual([]);

    // The same resources the search API serves: a search's Observation ids are all in the export.
    const search = await fetch(`${server.origin}/api/v1/fhir/Observation?patient=${subjects[0]!.patient}&_count=200`, { headers: { Authorization: `Bearer ${sandboxKey}` } });
    const bundle = (await search.json()) as { entry?: { resource: FhirResource }[] };
    const exported = new Set((resources.get("Observation") ?? []).map((resource) => resource.id));
    for (const entry of bundle.entry ?? []) expect(exported.has(entry.resource.id)).toBe(true);
  });

  it("Group/consented/$export narrows with _type and _since (from the change feed), splits files at the size given, and refuses what the IG does not allow", async () => {
    const { sandboxKey, subjects, application } = await population();
    const typed = await exportAll(sandboxKey, "Group/consented/$export?_type=Patient,Condition");
    expect(new Set(typed.manifest.output.map((file) => file.type))).toEqual(new Set(["Patient", "Condition"]));

    // Nothing changed since now: an incremental export is empty; after a change to one subject, only that subject's changed record.
    const checkpoint = new Date(Date.now() + 1000).toISOString().replace(/\.\d+Z$/, "Z");
    await sleep(1100);
    const quiet = await exportAll(sandboxKey, `$export?_since=${checkpoint}`);
    expect(quiet.manifest.output).toEqual([]);
    const record = await db().record.findFirstOrThrow({ where: { subjectId: subjects[0]!.id, category: "conditions" } });
    await db().recordChange.create({ data: { subjectId: subjects[0]!.id, category: "conditions", sequence: 100000, recordId: record.id, changeType: "upsert" } });
    const incremental = await exportAll(sandboxKey, `$export?_since=${checkpoint}`);
    expect(incremental.manifest.output.map((file) => [file.type, file.count])).toEqual([["Condition", 1]]);
    expect((await download(sandboxKey, incremental.manifest)).get("Condition")![0]!.id).toBe(record.id.replace("rec_", "rec-"));

    // Small files: every type whose resources exceed the size is split, and every file is still whole ndjson.
    const split = await exportAll(sandboxKey, "$export?_type=Observation", { fileBytes: 4096 });
    expect(split.manifest.output.length).toBeGreaterThan(1);
    const observations = (await download(sandboxKey, split.manifest)).get("Observation")!;
    expect(new Set(observations.map((resource) => resource.id)).size).toBe(observations.length);

    const refusals = [
      [await kickOff(sandboxKey, "$export", {}), 400, "invalid_request"],
      [await kickOff(sandboxKey, "$export?_outputFormat=text/csv"), 400, "invalid_query"],
      [await kickOff(sandboxKey, "$export?_type=Spaceship"), 400, "invalid_query"],
      [await kickOff(sandboxKey, "$export?_since=yesterday"), 400, "invalid_query"],
      [await kickOff(sandboxKey, "Group/everyone/$export"), 404, "not_found"],
    ] as const;
    for (const [answer, status, code] of refusals) {
      expect(answer.status).toBe(status);
      expect(answer.headers.get("content-type")).toContain("application/fhir+json");
      expect(errorCode(answer.body)).toBe(code);
    }
    expect(await db().fhirExport.count({ where: { applicationId: application.id, status: { in: ["accepted", "running"] } } })).toBe(0);
  });

  it("a subject whose consent is revoked during the export is left out of what is still to be written", async () => {
    const { sandboxKey, subjects } = await population();
    const [first, second] = subjects;
    const { manifest } = await exportAll(sandboxKey, "$export", {
      // After the first subject is written, the second's patient revokes.
      beforeSubject: async (subjectId) => {
        if (subjectId === second!.id) await revokeReceipt(second!.receipt.id, "patient");
      },
    });
    const resources = await download(sandboxKey, manifest);
    expect(patientsOf(resources)).toEqual(new Set([first!.patient]));
    expect(subjectsIn(resources)).toEqual(new Set([first!.patient]));
  });

  it("one running export per application and environment (429 with Retry-After), cancel deletes the files, expiry deletes them an hour after completion", async () => {
    const { sandboxKey, application } = await population();
    const started = await kickOff(sandboxKey, "$export");
    const statusUrl = started.headers.get("content-location")!;
    const busy = await kickOff(sandboxKey, "Group/consented/$export");
    expect(busy.status).toBe(429);
    expect(Number(busy.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(errorCode(busy.body)).toBe("rate_limited");

    // Cancel while running: DELETE answers 202, the status is then 404, the files are gone, and a new export may start.
    await work(statusUrl, {
      beforeSubject: async () => {
        if ((await db().fhirExportFile.count({ where: { export: { applicationId: application.id } } })) > 0) {
          const cancelled = await fetch(statusUrl, { method: "DELETE", headers: { Authorization: `Bearer ${sandboxKey}` } });
          expect(cancelled.status).toBe(202);
        }
      },
    });
    expect((await poll(sandboxKey, statusUrl)).status).toBe(404);
    expect(await db().fhirExportFile.count({ where: { export: { applicationId: application.id } } })).toBe(0);

    const done = await exportAll(sandboxKey, "$export?_type=Patient");
    const url = done.manifest.output[0]!.url;
    const exportId = done.statusUrl.slice(done.statusUrl.lastIndexOf("/") + 1);
    const row = await db().fhirExport.findUniqueOrThrow({ where: { id: exportId } });
    expect(row.expiresAt!.getTime() - row.completedAt!.getTime()).toBe(60 * 60 * 1000);
    await expireFhirExports.run(new Date(row.expiresAt!.getTime() - 1000));
    expect((await fetch(url, { headers: { Authorization: `Bearer ${sandboxKey}` } })).status).toBe(200);
    await expireFhirExports.run(new Date(row.expiresAt!.getTime() + 1000));
    expect((await fetch(url, { headers: { Authorization: `Bearer ${sandboxKey}` } })).status).toBe(404);
    expect((await poll(sandboxKey, done.statusUrl)).status).toBe(404);
    expect(await db().fhirExportFile.count({ where: { exportId } })).toBe(0);
  });

  it("isolation: another application's export and files are 404, live and sandbox are separate populations, delegated credentials cannot export", async () => {
    const ours = await population();
    const theirs = await createTestApplication({ categoryAllowlist: ALL });
    const { statusUrl, manifest } = await exportAll(ours.sandboxKey, "$export?_type=Patient");
    expect((await poll(theirs.sandboxKey, statusUrl)).status).toBe(404);
    expect((await fetch(statusUrl, { method: "DELETE", headers: { Authorization: `Bearer ${theirs.sandboxKey}` } })).status).toBe(404);
    for (const file of manifest.output) expect((await fetch(file.url, { headers: { Authorization: `Bearer ${theirs.sandboxKey}` } })).status).toBe(404);
    expect((await poll(ours.sandboxKey, statusUrl)).status).toBe(200);

    // Live: a live subject of the same application is exported only by the live key, and the sandbox export does not block it.
    await db().application.update({ where: { id: ours.application.id }, data: { productionEnabled: true, status: "active" } });
    const liveSubject = await createTestSubject(ours.application.id, "live");
    await grantReceipt({ applicationId: ours.application.id, environment: "live", subjectId: liveSubject.id, categories: ALL });
    await importScenario(liveSubject.id);
    await kickOff(ours.sandboxKey, "$export?_type=Patient"); // left running in the sandbox
    const live = await exportAll(ours.liveKey, "$export?_type=Patient");
    expect(patientsOf(await download(ours.liveKey, live.manifest))).toEqual(new Set([liveSubject.id.replace("u_", "u-")]));
    expect((await poll(ours.sandboxKey, live.statusUrl)).status).toBe(404);
    for (const file of live.manifest.output) expect((await fetch(file.url, { headers: { Authorization: `Bearer ${ours.sandboxKey}` } })).status).toBe(404);

    const credential = await issueCredential(server.origin, ours.sandboxKey, {
      subject: ours.subjects[0]!.id,
      categories: ["labs"],
      purpose: "Try a bulk export",
      durationSeconds: 900,
    });
    const refused = await kickOff(credential.token, "$export");
    expect(refused.status).toBe(403);
    expect(errorCode(refused.body)).toBe("operation_forbidden");
  });
});
