/**
 * The patient's accounting of disclosures (issue 53, point 4): what the application and its AI agents read of one
 * subject, computed from the request log. The log holds no record contents; a row names the operation, the path (so
 * the category, or for a FHIR read the resource type), the status, the delegated credential if one was used, and the
 * time. Only successful reads of the record routes and of the FHIR view's reads count: a refused request (404 after
 * the consent ended, 403 outside the receipt) disclosed nothing.
 */
import { CATEGORY_RESOURCE_TYPES, type Category } from "@/lib/records";

/** The operation that reads the whole shared record (the snapshot); the others name their category in the path. */
export const WHOLE_RECORD_ROUTE = "GET /users/{subject}/records";
/** The FHIR view's read of the whole shared record (issue 52). */
export const FHIR_EVERYTHING_ROUTE = "GET /fhir/Patient/{subject}/$everything";
/**
 * The FHIR view's reads of one subject (issue 52): $everything, the Patient, a search and a read by id; the request
 * log names their subject once the read is authorized (lib/fhir-api/access.ts), and their path names the type.
 */
export const FHIR_READ_ROUTES = [FHIR_EVERYTHING_ROUTE, "GET /fhir/Patient/{subject}", "GET /fhir/{resourceType}", "GET /fhir/{resourceType}/{id}"] as const;
/** The record-reading operations: the snapshot, one category's page and its change feed, and the FHIR view's reads. */
export const RECORD_READ_ROUTES = [WHOLE_RECORD_ROUTE, "GET /users/{subject}/records/{category}", "GET /users/{subject}/records/{category}/changes", ...FHIR_READ_ROUTES] as const;
const WHOLE_RECORD_ROUTES: readonly string[] = [WHOLE_RECORD_ROUTE, FHIR_EVERYTHING_ROUTE];
const FHIR_ROUTES: readonly string[] = FHIR_READ_ROUTES;

/**
 * The categories a FHIR read of `type` discloses: those whose records are of the type (an Observation is a lab or a
 * vital sign, a DiagnosticReport a lab report or a document); none for a context type (Encounter, Practitioner,
 * ...), which is counted as a read without a category.
 */
export function fhirTypeCategories(type: string): Category[] {
  return (Object.entries(CATEGORY_RESOURCE_TYPES) as [Category, readonly string[]][]).filter(([, types]) => types.includes(type)).map(([category]) => category);
}

/**
 * Successful reads grouped by UTC day, operation, category (null for the whole record; for a FHIR read the resource
 * type its path names) and credential (null: the application's key).
 */
export type ReadGroup = { day: string; route: string; category: string | null; agentCredentialId: string | null; count: number };

/** A delegated credential issued for the subject, as the platform still holds it. */
export type IssuedCredential = { id: string; purpose: string; categories: string[]; createdAt: Date; expiresAt: Date; revokedAt: Date | null };

export type CategoryReads = { category: string; reads: number };

export type DisclosureDay = {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  /** Successful record reads that day, by the application and its agents together. */
  requests: number;
  /** Reads of the whole shared record (every category the consent shares). */
  wholeRecordReads: number;
  /** Reads of one category (a page or its changes), most read first. */
  categories: CategoryReads[];
  /** How many of the day's requests an AI agent's credential made. */
  agentRequests: number;
};

export type AgentDisclosure = {
  credentialId: string;
  /** What the application declared when it issued the credential; null once Chartkey's copy was deleted. */
  purpose: string | null;
  categories: string[];
  issuedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  requests: number;
  wholeRecordReads: number;
  reads: CategoryReads[];
};

export type DisclosureHistory = {
  /** Every successful record read in the log window. */
  requests: number;
  /** Newest day first; days without reads are left out. */
  days: DisclosureDay[];
  /** Every credential issued for the subject (newest first), and any the log names that is no longer held. */
  agents: AgentDisclosure[];
};

function addReads(into: Map<string, number>, category: string, count: number) {
  into.set(category, (into.get(category) ?? 0) + count);
}

/** Most read first, then by name, so the order is stable. */
function sortedReads(reads: Map<string, number>): CategoryReads[] {
  return [...reads].map(([category, count]) => ({ category, reads: count })).sort((a, b) => b.reads - a.reads || a.category.localeCompare(b.category));
}

/**
 * Folds the grouped reads and the credentials into the patient's history. A group of another operation than the
 * record reads (or without a category where one is needed) is left out, so the history never claims a read that
 * was not one.
 */
export function disclosureHistory(groups: readonly ReadGroup[], credentials: readonly IssuedCredential[]): DisclosureHistory {
  const days = new Map<string, { requests: number; wholeRecordReads: number; reads: Map<string, number>; agentRequests: number }>();
  const agents = new Map<string, { requests: number; wholeRecordReads: number; reads: Map<string, number> }>();
  let requests = 0;
  for (const group of groups) {
    if (!(RECORD_READ_ROUTES as readonly string[]).includes(group.route) || group.count <= 0) continue;
    const whole = WHOLE_RECORD_ROUTES.includes(group.route);
    if (!whole && !group.category) continue;
    const fhir = FHIR_ROUTES.includes(group.route);
    // A FHIR read names a type: it discloses each category of it (none for a context type, still a read).
    const categories = whole ? [] : fhir ? fhirTypeCategories(group.category!) : [group.category!];
    requests += group.count;
    const day = days.get(group.day) ?? { requests: 0, wholeRecordReads: 0, reads: new Map(), agentRequests: 0 };
    days.set(group.day, day);
    day.requests += group.count;
    if (whole) day.wholeRecordReads += group.count;
    for (const category of categories) addReads(day.reads, category, group.count);
    if (group.agentCredentialId) {
      day.agentRequests += group.count;
      const agent = agents.get(group.agentCredentialId) ?? { requests: 0, wholeRecordReads: 0, reads: new Map() };
      agents.set(group.agentCredentialId, agent);
      agent.requests += group.count;
      if (whole) agent.wholeRecordReads += group.count;
      for (const category of categories) addReads(agent.reads, category, group.count);
    }
  }
  const held = new Map(credentials.map((credential) => [credential.id, credential]));
  const agentIds = [...new Set([...[...credentials].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.id.localeCompare(b.id)).map((credential) => credential.id), ...[...agents.keys()].sort()])];
  return {
    requests,
    days: [...days]
      .sort(([a], [b]) => b.localeCompare(a))
      .map(([day, totals]) => ({ day, requests: totals.requests, wholeRecordReads: totals.wholeRecordReads, categories: sortedReads(totals.reads), agentRequests: totals.agentRequests })),
    agents: agentIds.map((credentialId) => {
      const credential = held.get(credentialId);
      const reads = agents.get(credentialId);
      return {
        credentialId,
        purpose: credential?.purpose ?? null,
        categories: credential?.categories ?? [],
        issuedAt: credential?.createdAt ?? null,
        expiresAt: credential?.expiresAt ?? null,
        revokedAt: credential?.revokedAt ?? null,
        requests: reads?.requests ?? 0,
        wholeRecordReads: reads?.wholeRecordReads ?? 0,
        reads: reads ? sortedReads(reads.reads) : [],
      };
    }),
  };
}
