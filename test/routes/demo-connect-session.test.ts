import { describe, expect, it } from "vitest";
import { findScenario, SCENARIOS } from "@/lib/sandbox";
import { connectSessionResultSchema } from "@/lib/demo";
import { callApi, errorCode } from "@/test/route-calls";

function connect(body: unknown) {
  return callApi("/demo/v1/connect/sessions", { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body) });
}

describe("POST /demo/v1/connect/sessions", () => {
  it("completes with baseline-adult's patient when the scenario is omitted", async () => {
    const call = await connect({ external_user_id: "user-1", categories: ["labs", "medications"] });
    expect(call.status).toBe(201);
    expect(call.headers.get("cache-control")).toBe("no-store");
    const body = connectSessionResultSchema.parse(call.body);
    const baseline = findScenario("baseline-adult")!;
    expect(body).toMatchObject({
      status: "complete",
      scenario: "baseline-adult",
      external_user_id: "user-1",
      categories: ["medications", "labs"],
      patient_id: baseline.patientId,
      subject: baseline.subject,
      failure_code: null,
      persisted: false,
    });
  });

  it("completes every record and behavior scenario with its own patient, granting everything when categories are omitted", async () => {
    for (const scenario of SCENARIOS.filter((entry) => entry.kind !== "session")) {
      const call = await connect({ external_user_id: "u", scenario: scenario.id });
      expect(call.status, scenario.id).toBe(201);
      const body = connectSessionResultSchema.parse(call.body);
      expect(body.status).toBe("complete");
      expect(body.patient_id).toBe(scenario.patientId);
      expect(body.categories).toEqual(scenario.consentCategories);
    }
  });

  it("reports connect-cancelled as cancelled and connect-failed as failed with source_unavailable, without a patient", async () => {
    const cancelled = connectSessionResultSchema.parse((await connect({ external_user_id: "u", scenario: "connect-cancelled" })).body);
    expect(cancelled).toMatchObject({ status: "cancelled", patient_id: null, failure_code: null });
    const failedCall = await connect({ external_user_id: "u", scenario: "connect-failed", categories: ["labs"] });
    expect(failedCall.status).toBe(201);
    expect(connectSessionResultSchema.parse(failedCall.body)).toMatchObject({
      status: "failed",
      patient_id: null,
      failure_code: "source_unavailable",
    });
  });

  it("grants consent-partial only the requested categories its receipt covers, all of it when omitted", async () => {
    const some = connectSessionResultSchema.parse(
      (await connect({ external_user_id: "u", scenario: "consent-partial", categories: ["labs", "allergies"] })).body,
    );
    expect(some.categories).toEqual(["allergies"]);
    const all = connectSessionResultSchema.parse((await connect({ external_user_id: "u", scenario: "consent-partial" })).body);
    expect(all.categories).toEqual(["medications", "allergies"]);
    const none = await connect({ external_user_id: "u", scenario: "consent-partial", categories: ["labs", "vitals"] });
    expect(none.status).toBe(400);
    expect(errorCode(none)).toBe("invalid_categories");
  });

  it("refuses unknown or empty categories and unknown scenarios", async () => {
    const unknownCategory = await connect({ external_user_id: "u", categories: ["labs", "x-rays"] });
    expect([unknownCategory.status, errorCode(unknownCategory)]).toEqual([400, "invalid_categories"]);
    const empty = await connect({ external_user_id: "u", categories: [] });
    expect([empty.status, errorCode(empty)]).toEqual([400, "invalid_categories"]);
    const unknownScenario = await connect({ external_user_id: "u", scenario: "nope" });
    expect([unknownScenario.status, errorCode(unknownScenario)]).toEqual([400, "invalid_scenario"]);
  });

  it("answers body errors as the spec says: invalid_json, invalid_request, 413", async () => {
    for (const malformed of ["{", "[1]", "null"]) {
      const call = await connect(malformed);
      expect([call.status, errorCode(call)]).toEqual([400, "invalid_json"]);
    }
    const missing = await connect({ categories: ["labs"] });
    expect([missing.status, errorCode(missing)]).toEqual([400, "invalid_request"]);
    const unknownField = await connect({ external_user_id: "u", extra: true });
    expect([unknownField.status, errorCode(unknownField)]).toEqual([400, "invalid_request"]);
    const wrongType = await connect({ external_user_id: "u", categories: "labs" });
    expect([wrongType.status, errorCode(wrongType)]).toEqual([400, "invalid_request"]);
    const huge = await connect({ external_user_id: "x".repeat(65 * 1024) });
    expect([huge.status, errorCode(huge)]).toEqual([413, "payload_too_large"]);
  });
});
