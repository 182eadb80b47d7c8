import type { Bundle, BundleEntry } from "fhir/r4";
import { requireSandbox, type KeyAuth } from "@/lib/auth";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { mergeFacts, normalizeResources, type NormalizedRecord } from "@/lib/records";
import { TEFCA_PATIENT_ID, tefcaOrganization, tefcaResource } from "./network";
import { retrievedReferences } from "./present-session";
import { effectiveState, requireScope, requireState } from "./session-state";
import { ownTefcaSession, tefcaStorage, type TefcaSessionRow } from "./storage";

export type TefcaNormalizedExport = {
  object: "tefca_export";
  format: "normalized";
  sessionId: string;
  patientId: string;
  categories: Record<string, NormalizedRecord[]>;
  meta: { schemaVersion: 2; generatedAt: string };
};

/**
 * GET /tefca/sessions/{sessionId}/export: what the session retrieved, as a FHIR R4 `collection` Bundle (each
 * resource once, with its fullUrl at the organization that holds it) or, with format=normalized, as the platform's
 * normalized records per category. Before a successful retrieval: 409 `records_unavailable`; revoked or expired:
 * 409 `invalid_state` (their results are gone).
 */
export async function exportTefcaRecords(key: KeyAuth, sessionId: string, format: "fhir" | "normalized", now = new Date()): Promise<{ session: TefcaSessionRow; body: Bundle | TefcaNormalizedExport }> {
  requireSandbox(key);
  const session = await tefcaStorage(() => ownTefcaSession(db(), key.application.id, sessionId));
  requireScope(session.categories, key.application.categoryAllowlist);
  const state = effectiveState(session, now);
  if (state === "started" || state === "discovered") {
    throw new ApiError("records_unavailable", "Nothing to export yet: retrieve documents first (discover, then retrieve).");
  }
  requireState(state, ["retrieved"], "export");
  const references = retrievedReferences(session);
  return { session, body: format === "fhir" ? fhirBundle(session, references, now) : normalizedExport(session, references, now) };
}

function fhirBundle(session: TefcaSessionRow, references: string[], now: Date): Bundle {
  const entry: BundleEntry[] = references.map((reference) => {
    const { fullUrl, resource } = tefcaResource(reference);
    return { fullUrl, resource };
  });
  return {
    resourceType: "Bundle",
    // FHIR ids allow letters, digits, '-' and '.', not the session id's '_'.
    id: `${session.id.replace(/_/g, "-")}-export-${session.version}`,
    meta: { lastUpdated: session.updatedAt.toISOString() },
    type: "collection",
    timestamp: now.toISOString(),
    entry,
  };
}

/** Each organization's resources are normalized as one source; a fact two organizations hold becomes one record. */
function normalizedExport(session: TefcaSessionRow, references: string[], now: Date): TefcaNormalizedExport {
  const byOrganization = new Map<string, unknown[]>();
  for (const reference of references) {
    const { organizationId, resource } = tefcaResource(reference);
    byOrganization.set(organizationId, [...(byOrganization.get(organizationId) ?? []), resource]);
  }
  const facts = mergeFacts(
    [...byOrganization].map(([organizationId, resources]) =>
      normalizeResources(resources, { sourceId: organizationId, sourceName: tefcaOrganization(organizationId).name }, session.id).facts,
    ),
  );
  const categories: Record<string, NormalizedRecord[]> = Object.fromEntries(session.categories.map((category) => [category, []]));
  for (const fact of facts) categories[fact.category]?.push(fact.record);
  return {
    object: "tefca_export",
    format: "normalized",
    sessionId: session.id,
    patientId: TEFCA_PATIENT_ID,
    categories,
    meta: { schemaVersion: 2, generatedAt: now.toISOString() },
  };
}
