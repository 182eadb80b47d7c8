import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { getDemoOpenApi } from "./demo-document";
import type { OpenApiDocument } from "./document-types";
import { getPlatformOpenApi } from "./platform-document";
import { referenceDocument } from "./reference-document";

async function problems(document: OpenApiDocument) {
  const config = await createConfig({ extends: ["recommended"] });
  const found = await lintFromString({ source: JSON.stringify(document), absoluteRef: "/openapi.json", config });
  return found.map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
}

describe("both OpenAPI documents, as served and as /docs renders them, pass Redocly's recommended rules", () => {
  it("the platform document: no errors, no warnings", async () => {
    expect(await problems(getPlatformOpenApi())).toEqual([]);
  });

  it("the demo document: no errors, no warnings", async () => {
    expect(await problems(getDemoOpenApi())).toEqual([]);
  });

  it("the documents /docs renders (with the error table and SDK samples): no errors, no warnings", async () => {
    expect(await problems(referenceDocument("platform"))).toEqual([]);
    expect(await problems(referenceDocument("demo"))).toEqual([]);
  });
});
