import { TEFCA_PATIENT_ID, tefcaDocument, tefcaOrganization } from "./network";
import type { TefcaSessionResource } from "./schemas";
import { effectiveState } from "./session-state";
import type { TefcaSessionRow } from "./storage";

/** What a retrieval stored: each selected document and the resources ("Type/id") it carried. */
export type RetrievedDocument = { documentId: string; organizationId: string; category: string; resources: string[] };

export function discoveredIds(session: TefcaSessionRow): string[] {
  return session.discovered as string[];
}

export function retrievedDocuments(session: TefcaSessionRow): RetrievedDocument[] {
  return session.results as RetrievedDocument[];
}

/** Every retrieved resource once, in the order of first retrieval. */
export function retrievedReferences(session: TefcaSessionRow): string[] {
  return [...new Set(retrievedDocuments(session).flatMap((document) => document.resources))];
}

/** A discovered document as the session lists it; undefined for an id the network does not hold. */
export function presentDocument(id: string): TefcaSessionResource["documents"][number] | undefined {
  const document = tefcaDocument(id);
  if (!document) return undefined;
  return {
    id: document.id,
    organizationId: document.organizationId,
    organizationName: tefcaOrganization(document.organizationId).name,
    category: document.category,
    title: document.title,
    date: document.date,
    resourceCount: document.resources.length,
  };
}

export function presentTefcaSession(session: TefcaSessionRow, now: Date): TefcaSessionResource {
  return {
    object: "tefca_session",
    id: session.id,
    state: effectiveState(session, now),
    patientId: TEFCA_PATIENT_ID,
    categories: session.categories as TefcaSessionResource["categories"],
    documents: discoveredIds(session).flatMap((id) => presentDocument(id) ?? []),
    selectedDocumentIds: session.selectedDocumentIds,
    retrievedResourceCount: retrievedReferences(session).length,
    version: session.version,
    expiresAt: session.expiresAt.toISOString(),
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
  };
}
