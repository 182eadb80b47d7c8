import type { Identifier } from "../schemas";
import { codeable } from "./codes";
import { objects, string } from "./read";

const SSN_SYSTEM = "http://hl7.org/fhir/sid/us-ssn";
const SSN_TYPE_CODE = "SS";

function isSocialSecurityNumber(system: string | null, type: ReturnType<typeof codeable>): boolean {
  return (
    system === SSN_SYSTEM ||
    (type?.codings.some((item) => item.code.toUpperCase() === SSN_TYPE_CODE) ?? false) ||
    /social security/i.test(type?.text ?? "")
  );
}

/** Identifiers with a value; social security numbers are dropped here so that no record can ever serve one. */
export function identifiers(value: unknown): Identifier[] {
  return objects(value).flatMap((raw) => {
    const system = string(raw.system);
    const type = codeable(raw.type);
    const identifierValue = string(raw.value);
    if (identifierValue === null || isSocialSecurityNumber(system, type)) return [];
    return [{ system, value: identifierValue, type: type?.text ?? null }];
  });
}
