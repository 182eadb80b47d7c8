import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "@/lib/http";
import type { CodeSample } from "./reference-document";
import { referenceDocument } from "./reference-document";
import type { OpenApiOperation } from "./document-types";

const operationsOf = (key: "platform" | "demo") =>
  Object.values(referenceDocument(key).paths).flatMap((item) => Object.values(item) as (OpenApiOperation & { "x-codeSamples"?: CodeSample[] })[]);

describe("the documents the /docs reference renders", () => {
  it("list every error code their operations answer, with its status, in the description", () => {
    for (const key of ["platform", "demo"] as const) {
      const description = referenceDocument(key).info.description;
      const codes = new Set(operationsOf(key).flatMap((operation) => Object.values(operation.responses).flatMap((response) => response["x-error-codes"] ?? [])));
      expect(codes.size).toBeGreaterThan(5);
      for (const code of codes) expect(description, code).toContain(`| \`${code}\` | ${ERROR_STATUS[code as keyof typeof ERROR_STATUS]} |`);
    }
  });

  it("give every keyed operation an @chartkey/sdk sample (test/docs-samples.test.ts type-checks them)", () => {
    expect(operationsOf("platform").every((operation) => operation["x-codeSamples"]?.[0]?.label === "@chartkey/sdk")).toBe(true);
    expect(operationsOf("demo").some((operation) => operation["x-codeSamples"])).toBe(false);
  });
});
