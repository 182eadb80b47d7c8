import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/http";
import { testOperation } from "@/test/operations";
import { FHIR_PROFILE, PUBLIC_PROFILE } from "./profiles";
import { route } from "./route";

describe("the FHIR profile answers errors as OperationOutcome", () => {
  it("a not_found becomes a 404 OperationOutcome in application/fhir+json naming the code and request id", async () => {
    const read = route(
      { ...testOperation({ method: "GET", path: "/Patient/{id}", auth: "none", params: z.object({ id: z.string().describe("Id.") }) }), profile: FHIR_PROFILE },
      ({ params }) => {
        throw new ApiError("not_found", `No Patient/${params.id}.`);
      },
    );
    const response = await read(new Request("http://localhost/ehr/x/fhir/Patient/p1"), { params: Promise.resolve({ id: "p1" }) });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/fhir+json");
    const outcome = await response.json();
    expect(outcome).toMatchObject({
      resourceType: "OperationOutcome",
      id: response.headers.get("request-id")!.replace("_", "-"),
      issue: [{ severity: "error", code: "not-found", details: { text: "not_found" }, diagnostics: "No Patient/p1." }],
    });
  });

  it("an unexpected exception is a fatal exception issue that leaks nothing", async () => {
    const boom = route({ ...testOperation({ method: "GET", path: "/boom", auth: "none" }), profile: FHIR_PROFILE }, () => {
      throw new Error("secret at /srv/x.ts");
    });
    const response = await boom(new Request("http://localhost/boom"));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).toContain('"code":"exception"');
    expect(text).not.toContain("secret");
  });
});

describe("the public profile", () => {
  it("is readable from any origin, never cached, with no platform version header", async () => {
    const report = route({ ...testOperation({ method: "GET", path: "/reports/{id}", auth: "none" }), profile: PUBLIC_PROFILE }, () => ({ body: { ok: true } }));
    const response = await report(new Request("http://localhost/reports/r1"));
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("service-version")).toBeNull();
  });
});
