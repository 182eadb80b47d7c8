import { describe, expect, it } from "vitest";
import { readSourceJson } from "./fetch-patient-resources";
import { SourceError } from "./source-error";

describe("readSourceJson", () => {
  const nested = (levels: number) => '{"extension":['.repeat(levels) + "1" + "]}".repeat(levels);

  it("reads a health system's JSON, however its resources nest in practice", async () => {
    expect(await readSourceJson(new Response('{"resourceType":"Bundle","entry":[{"resource":{"contained":[{"a":[1]}]}}]}'), "The search")).toMatchObject({ resourceType: "Bundle" });
    expect(await readSourceJson(new Response(nested(30)), "The search")).toBeTruthy();
  });

  it("refuses JSON nested deeper than the normalizer may walk, and text that is not JSON, as invalid_response", async () => {
    for (const body of [nested(50_000), "<html>"]) {
      const failure = await readSourceJson(new Response(body, { status: 200 }), "The search").catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SourceError);
      expect((failure as SourceError).code).toBe("invalid_response");
    }
  });
});
