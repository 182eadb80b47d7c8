import type { FhirResource } from "fhir/r4";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { addThirdPartyProvider, connectThirdPartyPatient, startThirdPartySmartForFile } from "@/test/third-party-smart/live-patient";
import { fetchPatientResourcePages } from "./fetch-patient-resources";
import { DEFAULT_HTTP_POLICY } from "./http-policy";

// How an import reads a search's pages from a SMART on FHIR server no code of ours serves (oidc-provider in front of
// @medplum/fhir-router): the next page is asked for while the import works on the one before, and a page asked for
// ahead that the import never reads cannot fail the process. Patient 999 has two Observations; a `_count` of 1 makes
// them two pages.

const PATIENT = "999";
const servers = startThirdPartySmartForFile({ allowTestServerHost: true });

afterEach(() => servers.smart().failRequests(null));

let providerId: string | undefined;

/** A patient 999 connected at the third-party server (one live provider row for the file, added once). */
async function connectedSource() {
  providerId ??= (await addThirdPartyProvider(servers.smart())).provider.id;
  const { source } = await connectThirdPartyPatient({ api: servers.api(), providerId, patient: PATIENT, asked: ["labs"] });
  return source;
}

/** How many Observation searches (first pages and next pages) the server has received since `from`. */
const observationRequests = (from: number) => servers.smart().requests.slice(from).filter((line) => line.startsWith("GET /fhir/Observation?")).length;

/** Polls until `done` holds or `ms` have passed; whether it held. */
async function within(ms: number, done: () => boolean): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(20)) if (done()) return true;
  return done();
}

describe("a search's pages", () => {
  it("asks the server for the next page while the import works on the page before, and hands on every page once, in order", async () => {
    const source = await connectedSource();
    const from = servers.smart().requests.length;
    const pages: FhirResource[][] = [];
    let askedAheadOfTheFirstPage: boolean | null = null;
    await fetchPatientResourcePages(
      source,
      ["Observation"],
      async (page) => {
        // The first page is held here until the server has been asked for the second (or two seconds have passed).
        if (pages.length === 0) askedAheadOfTheFirstPage = await within(2_000, () => observationRequests(from) >= 2);
        pages.push(page.resources);
      },
      { pageSize: 1 },
    );
    expect(askedAheadOfTheFirstPage).toBe(true);
    // The two search pages, then the context the Observations reference (their Encounter) as a page of its own.
    expect(pages.map((page) => page.map((resource) => resource.resourceType))).toEqual([["Observation"], ["Observation"], ["Encounter"]]);
    expect(new Set(pages.slice(0, 2).flat().map((resource) => resource.id)).size).toBe(2);
    // Exactly the two pages: nothing asked for twice.
    expect(observationRequests(from)).toBe(2);
  });

  it("a page asked for ahead that fails while the page before is handed on rejects nothing unhandled; the handler's own failure is the one thrown", async () => {
    const source = await connectedSource();
    const from = servers.smart().requests.length;
    // Every Observation request after the first answers 500, and the client tries once.
    servers.smart().failRequests((url) => url.startsWith("/fhir/Observation?") && observationRequests(from) > 1);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const handlerFailure = new Error("the import's own failure while writing the first page");
      const fetched = fetchPatientResourcePages(
        source,
        ["Observation"],
        async () => {
          expect(await within(2_000, () => observationRequests(from) >= 2)).toBe(true);
          // Long enough for the failed answer to reach the client and its promise to settle, unawaited.
          await sleep(300);
          throw handlerFailure;
        },
        { pageSize: 1, policy: { ...DEFAULT_HTTP_POLICY, maxAttempts: 1 } },
      );
      await expect(fetched).rejects.toBe(handlerFailure);
      await sleep(50);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
