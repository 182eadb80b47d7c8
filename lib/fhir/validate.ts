import fs from "node:fs";
import path from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import draft06MetaSchema from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };

/**
 * Validation of FHIR R4 resources against HL7's official combined JSON schema (draft-06), which sits outside the
 * repository in the shared folder. The schema's root is a `oneOf` over every resource type; compiling it whole
 * would make every error list 140+ branches long, so each resource type's definition is compiled on first use
 * and cached.
 */

const FHIR_SCHEMA_KEY = "fhir-r4";
const MAX_ERRORS_REPORTED = 20;

export type FhirValidationResult = { valid: boolean; errors: string[] };

function fhirSchemaPath(): string {
  return path.resolve(process.cwd(), "../shared/fhir-schema/fhir.schema.json");
}

export function fhirSchemaAvailable(): boolean {
  return fs.existsSync(fhirSchemaPath());
}

type SchemaState = { ajv: Ajv; resourceTypes: ReadonlySet<string> };

let schemaState: SchemaState | undefined;
const validatorsByType = new Map<string, ValidateFunction>();

function loadSchema(): SchemaState {
  if (schemaState) return schemaState;
  if (!fhirSchemaAvailable()) throw new Error(`FHIR R4 JSON schema not found at ${fhirSchemaPath()}`);
  const schema = JSON.parse(fs.readFileSync(fhirSchemaPath(), "utf8")) as {
    id?: string;
    discriminator: { mapping: Record<string, string> };
  };
  // The HL7 file names itself with draft-04's `id`, which Ajv 8 rejects; it is registered under our own key.
  delete schema.id;
  // strict: false because the schema carries keywords Ajv does not know (`discriminator` without Ajv's option).
  const ajv = new Ajv({ strict: false, allErrors: false });
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

function describeError(error: ErrorObject): string {
  const where = error.instancePath || "/";
  const detail = error.params && Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : "";
  return `${where} ${error.message ?? "is invalid"}${detail}`;
}

/** Validates one FHIR R4 resource (a Bundle is validated with every entry's resource). */
export function validateFhirResource(resource: unknown): FhirValidationResult {
  if (typeof resource !== "object" || resource === null || Array.isArray(resource)) {
    return { valid: false, errors: ["resource is not a JSON object"] };
  }
  const resourceType = (resource as { resourceType?: unknown }).resourceType;
  if (typeof resourceType !== "string" || !loadSchema().resourceTypes.has(resourceType)) {
    return { valid: false, errors: [`unknown resourceType ${JSON.stringify(resourceType)}`] };
  }
  const validate = validatorFor(resourceType);
  if (validate(resource)) return { valid: true, errors: [] };
  const errors = (validate.errors ?? []).slice(0, MAX_ERRORS_REPORTED).map(describeError);
  return { valid: false, errors };
}
