import type { Observation } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { addThirdPartyProvider, connectThirdPartyPatient, startThirdPartySmartForFile } from "@/test/third-party-smart/live-patient";
import { flowState, linkToken } from "@/lib/connect";
import { db } from "@/lib/db";
import { resourceTypesFor } from "@/lib/records";
import { fetchPatientResources } from "./fetch-patient-resources";
import { scopeForCategories } from "./smart-scopes";
import { openSourceTokens } from "./source-tokens";

// The SMART client against a server no code of ours serves (oidc-provider in front of @medplum/fhir-router), with
// and without SMART v2's `permission-v2`: the sign-in asks for granular scopes only where the server advertises
// them, the server's grant enforces them (a search wider than the granted categories is refused), and the import
// reads every lab result of patient pat015 either way (8 laboratory Observations and one filed as both laboratory
// and vital signs; 2 more are vital signs only).

const PATIENT = "pat015";
const LAB = "http://terminology.hl7.org/CodeSystem/observation-category|laboratory";
const categoryCodes = (observation: Observation) => (observation.category ?? []).flatMap((concept) => (concept.coding ?? []).map((coding) => coding.code));

for (const permissionV2 of [true, false]) {
  describe(permissionV2 ? "a server advertising permission-v2" : "a server without permission-v2", () => {
    const servers = startThirdPartySmartForFile({ allowTestServerHost: true, permissionV2 });
    let providerId: string | undefined;
    const provider = async () => (providerId ??= (await addThirdPartyProvider(servers.smart())).provider.id);

    it(permissionV2 ? "is asked for lab Observations only, and enforces it" : "is asked for v1 .read scopes of whole types", async () => {
      const { source, authorizationUrl, sessionId } = await connectThirdPartyPatient({ api: servers.api(), providerId: await provider(), patient: PATIENT, asked: ["labs"] });
      const asked = authorizationUrl.searchParams.get("scope");
      expect(asked).toBe(scopeForCategories(["labs"], permissionV2 ? "v2" : "v1"));
      if (permissionV2) expect(asked).toContain(`patient/Observation.rs?category=${LAB}`);
      else expect(asked).toContain("patient/Observation.read");

      // What the Connect flow tells the patient: before signing in, that this server will ask for more (v1 only);
      // after, on the review page, that it did.
      const state = await flowState(linkToken("session", sessionId));
      expect(state.chosen.map((chosen) => chosen.broaderRequest)).toEqual([!permissionV2]);
      expect(await state.providersAskingBroadly()).toEqual(new Set(permissionV2 ? [] : [await provider()]));

      const from = servers.smart().requests.length;
      const fetched = await fetchPatientResources(source, resourceTypesFor(["labs"]));
      const observations = fetched.resources.filter((resource): resource is Observation => resource.resourceType === "Observation");
      const labs = observations.filter((observation) => categoryCodes(observation).includes("laboratory"));
      // Every lab result either way.
      expect(labs).toHaveLength(9);
      const searches = servers.smart().requests.slice(from).filter((line) => line.startsWith("GET /fhir/Observation?"));
      if (permissionV2) {
        // Only what the grant names: the search carries the category, and no vital sign comes back.
        expect(observations).toHaveLength(9);
        expect(searches.every((line) => new URL(line.slice(4), "http://x").searchParams.get("category") === LAB)).toBe(true);
        expect(fetched.unavailableTypes).toEqual([]);
      } else {
        // The v1 grant reads the type whole: the vital signs come too, and the import keeps only the shared categories.
        expect(observations).toHaveLength(11);
        expect(searches.every((line) => !line.includes("category="))).toBe(true);
      }
    });

    if (permissionV2) {
      it("a search wider than the granted categories is refused by the server", async () => {
        const { source } = await connectThirdPartyPatient({ api: servers.api(), providerId: await provider(), patient: PATIENT, asked: ["vitals"] });
        const fetched = await fetchPatientResources(source, resourceTypesFor(["vitals"]));
        const observations = fetched.resources.filter((resource): resource is Observation => resource.resourceType === "Observation");
        expect(observations.map((observation) => categoryCodes(observation).includes("vital-signs"))).toEqual([true, true, true]);
        const tokens = openSourceTokens(await db().source.findUniqueOrThrow({ where: { id: source.id } }));
        const wide = await fetch(`${servers.smart().fhirBaseUrl}/Observation?patient=${PATIENT}`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
        expect(wide.status).toBe(403);
        const labs = await fetch(`${servers.smart().fhirBaseUrl}/Observation?patient=${PATIENT}&category=${encodeURIComponent(LAB)}`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
        expect(labs.status).toBe(403);
      });
    }
  });
}
