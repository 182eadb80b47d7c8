import { describe, expect, it } from "vitest";
import { endpointPaths } from "./endpoints";
import { exportFloorStatement, fhirSearchPaths, jsonCategoryPaths, parseProcStatus, retryAfterMs, samePageRecords } from "./fhir";
import { fhirSection } from "./report";
import { exportRatio, fhirTargets, type FhirRun } from "./results";

const measurement = (requestsPerSecond: number, p50: number) => ({ requestsPerSecond, p50, p99: p50 * 3, requests: requestsPerSecond * 10, failures: 0 });
const exportRun = (dataset: "large" | "small", resources: number, seconds: number, floorSeconds: number[], peakRssMiB: number) => ({
  dataset,
  records: resources,
  resources,
  files: 3,
  bytes: resources * 2048,
  seconds,
  kickOffToManifest: seconds * 0.8,
  polls: 10,
  floors: floorSeconds.map((floor) => ({ rows: resources, bytes: resources * 1800, seconds: floor })),
  rssBeforeMiB: 150,
  peakRssMiB,
  load: 2.1,
});
const fhir: FhirRun = {
  measured: { startedAt: "2026-12-07T05:00:00.000Z", finishedAt: "2026-12-07T05:10:00.000Z", commit: "abc1234", loads: [2.5, 3.1] },
  search: {
    json: { label: "GET /users/{subject}/records/labs?limit=50", records: 1_000_000, measurement: measurement(500, 60), load: 2.5 },
    fhir: { label: "GET /fhir/Observation?...", records: 1_000_000, measurement: measurement(420, 70), load: 2.6 },
  },
  exports: [exportRun("small", 100_000, 10, [2, 1.5], 200), exportRun("large", 1_000_000, 100, [12, 10], 220)],
};

describe("the bench's FHIR section (issue 52, point 5)", () => {
  it("reads the same subjects in the same order as the JSON category page, each as its laboratory Observations, 50 to a page", () => {
    const subjects = Array.from({ length: 30 }, (_, i) => `u_subject${i}`);
    const json = jsonCategoryPaths(subjects);
    expect(json).toEqual(endpointPaths({ subjects, feeds: [] }, ["category"])[0]!.paths);
    const fhirPaths = fhirSearchPaths(subjects);
    expect(fhirPaths).toHaveLength(30);
    fhirPaths.forEach((fhirPath, index) => {
      const subject = json[index]!.split("/")[4]!;
      expect(fhirPath).toBe(`/api/v1/fhir/Observation?patient=${subject.replace("u_", "u-")}&category=laboratory&_count=50`);
    });
  });

  it("holds a FHIR page to the JSON page's records, in order", () => {
    const json = { data: [{ recordId: "rec_a" }, { recordId: "rec_b" }] };
    expect(samePageRecords(json, { entry: [{ resource: { id: "rec-a" } }, { resource: { id: "rec-b" } }] })).toBe(true);
    expect(samePageRecords(json, { entry: [{ resource: { id: "rec-b" } }, { resource: { id: "rec-a" } }] })).toBe(false);
    expect(samePageRecords(json, { entry: [{ resource: { id: "rec-a" } }] })).toBe(false);
    expect(samePageRecords({ data: [] }, { entry: [] })).toBe(false);
  });

  it("reads the export's rows in its floor: the consented subjects' stored resources and context resources, as text", () => {
    const statement = exportFloorStatement("app_x'y");
    expect(statement).toMatch(/^COPY \(/);
    expect(statement).toMatch(/TO STDOUT$/);
    expect(statement).toContain(`"applicationId" = 'app_x''y'`);
    expect(statement).toContain(`FROM "Record" r`);
    expect(statement).toContain(`FROM "FhirContext" c`);
    expect(statement).toContain(`r."deletedAt" IS NULL AND r."resource" IS NOT NULL`);
    expect(statement).toContain(`c."status" = 'active'`);
  });

  it("reads a process's RSS and peak from /proc/<pid>/status, and Retry-After as the IG's client waits", () => {
    expect(parseProcStatus("Name:\tnode\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\n")).toEqual({ rssMiB: 100, peakMiB: 200 });
    expect(() => parseProcStatus("Name:\tnode\n")).toThrow(/VmRSS/);
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs("0")).toBe(0);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs("Wed, 21 Oct 2015 07:28:00 GMT")).toBe(1000);
  });

  it("evaluates its three targets: search at 0.8x the JSON page, the export at 0.3x the faster COPY, the worker's peak flat", () => {
    expect(exportRatio(fhir.exports[1]!)).toBeCloseTo(0.1);
    expect(fhirTargets(fhir).map((target) => [target.name, target.measured, target.met])).toEqual([
      ["FHIR search page (50 Observations) vs the JSON category page, requests/s (measured as a pair)", "0.84× (420 vs 500)", true],
      ["Bulk Data export, whole (kick-off to last file), vs bare COPY of the same rows, resources/s (1,000,000 resources)", "0.10× (10,000 vs 100,000; 100.0 s vs 10.0 s)", false],
      ["Export worker's peak RSS, 1,000,000 vs 100,000 resources", "1.10× (220 vs 200 MiB; at start 150 and 150 MiB)", true],
    ]);
    expect(fhirTargets(undefined)).toEqual([]);
  });

  it("reports the pair and each export beside its floor", () => {
    const text = fhirSection(fhir).join("\n");
    expect(text).toContain("## FHIR (issue 52)");
    expect(text).toContain("`npm run bench -- --only fhir`");
    expect(text).toContain("| FHIR search page | GET /fhir/Observation?..., 1,000,000 records | 420 | 70 ms | 210 ms | – | 2.6 | requests/s **0.84×**, p50 1.17× |");
    expect(text).toContain("| large, 1,000,000 records | 1,000,000 (3, 1,953) | 100.0 s | 80.0 s | 10,000 | 12.0 s; 10.0 s | 100,000 | **0.10×** | 150 MiB | **220 MiB** | 2.1 |");
    expect(fhirSection(undefined)).toEqual([]);
    expect(fhirSection({ ...fhir, measured: { ...fhir.measured, note: "Run at 100,000 records." } })).toContain("Run at 100,000 records.");
  });
});
