import type { KeyAuth } from "@/lib/auth";
import { ApiError } from "@/lib/http";
import { changeTefcaSession } from "./change-session";
import { requireFixedPatient } from "./fixed-patient";
import { documentsInCategories, tefcaDocument, tefcaResource } from "./network";
import { discoveredIds, presentTefcaSession, type RetrievedDocument } from "./present-session";
import type { TefcaRetrieval, TefcaSessionResource } from "./schemas";
import { effectiveState, requireState } from "./session-state";

/**
 * POST /tefca/sessions/{sessionId}/discover: finds the patient's documents in the session's categories at every
 * participant. From `started`, or again from `discovered` (the same network gives the same documents).
 */
export async function discoverTefcaDocuments(key: KeyAuth, sessionId: string, body: { patientId?: string | undefined }, ifMatch: string | null, now = new Date()): Promise<TefcaSessionResource> {
  requireFixedPatient(body.patientId);
  const session = await changeTefcaSession(key, sessionId, ifMatch, {
    needsScope: true,
    change: (current) => {
      requireState(effectiveState(current, now), ["started", "discovered"], "discover");
      const found = documentsInCategories(current.categories).map((document) => document.id);
      if (current.state === "discovered" && sameList(discoveredIds(current), found)) return null;
      return { state: "discovered", discovered: found, updatedAt: now };
    },
  });
  return presentTefcaSession(session, now);
}

/**
 * POST /tefca/sessions/{sessionId}/retrieve: retrieves the selected documents' FHIR R4 resources, once. The selection
 * must be non-empty, without repeats and taken from this session's discovery (`invalid_documents`); a session whose
 * selection is complete changes only as a new session (`invalid_state`).
 */
export async function retrieveTefcaDocuments(key: KeyAuth, sessionId: string, body: { documentIds: string[] }, ifMatch: string | null, now = new Date()): Promise<TefcaRetrieval> {
  let retrieved: RetrievedDocument[] = [];
  const session = await changeTefcaSession(key, sessionId, ifMatch, {
    needsScope: true,
    change: (current) => {
      requireState(effectiveState(current, now), ["discovered"], "retrieve");
      requireSelectable(body.documentIds, discoveredIds(current));
      retrieved = body.documentIds.map((id) => {
        const document = tefcaDocument(id)!;
        return { documentId: id, organizationId: document.organizationId, category: document.category, resources: document.resources };
      });
      return { state: "retrieved", selectedDocumentIds: body.documentIds, results: retrieved, updatedAt: now };
    },
  });
  return {
    object: "tefca_retrieval",
    session: presentTefcaSession(session, now),
    documents: retrieved.map((document) => ({ ...document, resources: document.resources.map((reference) => tefcaResource(reference).resource) })),
  } as TefcaRetrieval;
}

/** POST /tefca/sessions/{sessionId}/revoke: ends the session from any state but expired and clears its results. */
export async function revokeTefcaSession(key: KeyAuth, sessionId: string, ifMatch: string | null, now = new Date()): Promise<TefcaSessionResource> {
  const session = await changeTefcaSession(key, sessionId, ifMatch, {
    needsScope: false,
    change: (current) => {
      const state = effectiveState(current, now);
      requireState(state, ["started", "discovered", "retrieved", "revoked"], "revoke");
      if (state === "revoked") return null;
      return { state: "revoked", discovered: [], selectedDocumentIds: [], results: [], updatedAt: now };
    },
  });
  return presentTefcaSession(session, now);
}

function requireSelectable(documentIds: string[], discovered: string[]): void {
  if (documentIds.length === 0) throw new ApiError("invalid_documents", "Select at least one document from this session's discovery.");
  const repeated = documentIds.filter((id, index) => documentIds.indexOf(id) !== index);
  if (repeated.length > 0) throw new ApiError("invalid_documents", `Each document may be selected once; repeated: ${[...new Set(repeated)].join(", ")}.`);
  const unknown = documentIds.filter((id) => !discovered.includes(id));
  if (unknown.length > 0) throw new ApiError("invalid_documents", `Not among this session's discovered documents: ${unknown.join(", ")}.`);
}

function sameList(left: string[], right: string[]): boolean {
  return left.length === right.length && left.every((value, index) => value === right[index]);
}
