import fs from "node:fs";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import draft06MetaSchema from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };
import { checkSharedFolder } from "@/test/shared-folder";

/**
 * HL7's FHIR R4 (4.0.1) JSON schema as shipped in ../shared/fhir-schema, compiled whole (its root is a oneOf over
 * every resource type), so a test can check a resource against exactly that file as well as against the project's
 * own validator (lib/fhir, the same schema as first published). Null when the folder is absent outside CI.
 */
const { absolutePath, verdict } = checkSharedFolder("../shared/fhir-schema");
if (verdict.action === "skip") console.warn(verdict.message);
if (verdict.action === "fail") throw new Error(verdict.message);

let compiled: ValidateFunction | undefined;

export function sharedFhirSchemaErrors(resource: unknown): string[] | null {
  if (verdict.action !== "run") return null;
  if (!compiled) {
    const schema = JSON.parse(fs.readFileSync(path.join(absolutePath, "fhir.schema.json"), "utf8")) as Record<string, unknown>;
    // Ajv 8 rejects draft-04's `id` naming the schema; the file is registered under a key of ours instead.
    delete schema.id;
    const ajv = new Ajv({ strict: false, allErrors: false });
    ajv.addMetaSchema(draft06MetaSchema);
    compiled = ajv.compile(schema);
  }
  return compiled(resource) ? [] : (compiled.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? "is invalid"}`);
}
