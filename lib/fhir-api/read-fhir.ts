import type { Bundle, FhirResource } from "fhir/r4";
import { patientFhirId } from "@/lib/fhir";
import { ApiError } from "@/lib/http";
import { fhirAccess, type FhirReader } from "./access";
import { readServed, subjectOfServedId } from "./read-resources";
import { cursorOffset, searchBinding, searchsetPage } from "./searchset";
import { dateBounds, DEFAULT_COUNT, MAX_COUNT } from "./search-query";
import { coveredCategories, isServedType } from "./served-types";

function notFound(type: string, id: string): ApiError {
  return new ApiError("not_found", `No ${type}/${id} is readable with this key.`);
}

/** GET /fhir/Patient/{subject}: the subject's Patient (its first health system's), when demographics are shared. */
export async function readFhirPatient(reader: FhirReader, subject: string): Promise<FhirResource> {
  const subjectId = subject.replace(/^u-/, "u_");
  const access = await fhirAccess(reader, subjectId);
  const categories = coveredCategories("Patient", access.categories);
  const { resources } = await readServed({ subjectId, categories, types: categories.length > 0 ? ["Patient"] : [] }, { ids: [patientFhirId(subjectId)] }, { offset: 0, count: 1 });
  if (!resources[0]) throw notFound("Patient", patientFhirId(subjectId));
  return resources[0];
}

/**
 * GET /fhir/{resourceType}/{id}: one resource of a subject that shares it now: 404 for a resource of another
 * application's subject, of a type or category outside the consent (or the credential), or of another type.
 */
export async function readFhirResource(reader: FhirReader, type: string, id: string): Promise<FhirResource> {
  if (type === "Patient") return readFhirPatient(reader, id);
  if (!isServedType(type)) throw new ApiError("not_found", `${type} is not a resource type this API serves; see metadata.`);
  const served = id.replace(/^rec_/, "rec-");
  const subjectId = await subjectOfServedId(served);
  if (subjectId === null) throw notFound(type, served);
  // A credential's own application may read the resource with its key: the credential learns only that it is not its subject's.
  if (reader.agentSubject !== null && reader.agentSubject !== subjectId) throw new ApiError("credential_scope_exceeded", "This credential does not cover that resource's subject.");
  const access = await fhirAccess(reader, subjectId).catch((error: unknown) => {
    throw error instanceof ApiError ? notFound(type, served) : error;
  });
  const categories = coveredCategories(type, access.categories);
  const { resources } = await readServed({ subjectId, categories, types: categories.length > 0 ? [type] : [] }, { ids: [served] }, { offset: 0, count: 1 });
  if (!resources[0]) throw notFound(type, served);
  return resources[0];
}

export type EverythingRequest = { reader: FhirReader; base: string; subject: string; params: URLSearchParams };

/**
 * GET /fhir/Patient/{subject}/$everything: every resource of the subject the consent serves (the Patient, its
 * records, the context they reference), paged as a searchset; `_type` narrows the types, `_since` to what changed
 * since an instant, `_count` sizes the pages.
 */
export async function getFhirPatientEverything(request: EverythingRequest): Promise<Bundle> {
  const subjectId = request.subject.replace(/^u-/, "u_");
  const access = await fhirAccess(request.reader, subjectId);
  const applied: [string, string][] = [];
  let count = DEFAULT_COUNT;
  let cursor: string | null = null;
  let types = access.types;
  const since = [];
  for (const [name, value] of request.params) {
    if (name === "_count") {
      if (!/^\d{1,6}$/.test(value)) throw new ApiError("invalid_query", "_count must be a whole number.");
      count = Math.min(Number(value), MAX_COUNT);
    } else if (name === "_cursor") cursor = value;
    else if (name === "_type") {
      const asked = value.split(",").filter((type) => type !== "");
      const unknown = asked.filter((type) => !isServedType(type));
      if (unknown.length > 0) throw new ApiError("invalid_query", `_type names types this API does not serve: ${unknown.join(", ")}.`);
      types = types.filter((type) => asked.includes(type));
      applied.push([name, value]);
    } else if (name === "_since") {
      since.push(...dateBounds(name, `ge${value}`).slice(0, 1));
      applied.push([name, value]);
    }
  }
  const path = `Patient/${patientFhirId(subjectId)}/$everything`;
  const binding = searchBinding({ applicationId: request.reader.key.application.id, environment: request.reader.key.environment, subject: subjectId }, path, applied, count);
  const offset = cursorOffset(cursor, binding);
  const { resources, total } = await readServed({ subjectId, categories: access.categories, types }, { lastUpdated: since }, { offset, count });
  return searchsetPage({ base: request.base, path, applied, count, offset, total, matches: resources, binding });
}
