import type { Binary, Bundle, DocumentReference, FhirResource, Patient } from "fhir/r4";
import { db } from "@/lib/db";
import { nestsDeeperThan } from "@/lib/http";
import { log } from "@/lib/log";
import { CATEGORIES, CCDA_MAX_BYTES, detached, isCcdaContentType, resourceTypesFor } from "@/lib/records";
import { DEFAULT_HTTP_POLICY, type HttpPolicy } from "./http-policy";
import type { ProviderRow } from "./providers";
import { REFRESH_MARGIN_MS, refreshSourceTokens } from "./refresh-access-token";
import { ContextReader } from "./context-reader";
import { fetchAnswer, type ReadAnswer } from "./retrying-fetch";
import { grantedCategoryFilter } from "./smart-scopes";
import { SourceError } from "./source-error";
import { openSourceTokens, type SmartTokens } from "./source-tokens";

/** The types an import of every category reads (the Patient itself is read directly, the others searched). */
export function importedResourceTypes(): string[] {
  return resourceTypesFor(CATEGORIES);
}

export type FetchOptions = {
  /** `_count` asked of each search; the server may page smaller. */
  pageSize?: number;
  policy?: HttpPolicy;
};

export type FetchedPatientRecord = {
  patientId: string;
  /** Null unless `Patient` was among the types asked for (demographics shared). */
  patient: Patient | null;
  /**
   * The Patient first, then each type's matches in the server's order; one copy of each type/id; then the context
   * resources they reference (a prescription's Medication, a record's Encounter, Practitioner, Organization,
   * Location, Specimen); then the Binaries holding the C-CDA documents the DocumentReferences link to (read so the
   * normalizer converts them).
   */
  resources: FhirResource[];
  /** Searches the provider refused (400, 403, 404: a type it does not serve, or outside the granted scope). */
  unavailableTypes: { resourceType: string; status: number }[];
  /** C-CDA documents linked by a DocumentReference that were not read: those stay documents records only. */
  unreadDocuments: { documentReference: string; reason: string }[];
};

/** How many linked C-CDA documents one import reads: each is a request and a conversion. */
export const MAX_LINKED_DOCUMENTS = 50;
/** base64 grows the document by a third; the JSON around it is small. */
const MAX_BINARY_ANSWER_BYTES = Math.ceil((CCDA_MAX_BYTES * 4) / 3) + 64 * 1024;

/**
 * `_count` asked of each search: FHIR servers commonly serve up to 1,000 a page (and may serve fewer). Each page is
 * a round trip, so a ten-year history of 10,000 Observations is 10 requests rather than 100.
 */
const DEFAULT_PAGE_SIZE = 1_000;
/**
 * What a type's search asks for again when its first page refuses the default as a bad request (400): a server
 * with a smaller maximum. Without it, such a server's type would be read as unavailable, and its records
 * taken for deleted.
 */
const FALLBACK_PAGE_SIZE = 100;
/** A server whose next links never end must not keep an import running forever. */
const MAX_PAGES_PER_TYPE = 1_000;
/** Searches of different types in flight at once: each type's pages follow one another, the types need not. */
const SEARCHES_AT_ONCE = 4;

/** The source's authorization for the length of one fetch: its tokens, refreshed when expired or refused. */
class SourceSession {
  constructor(
    private readonly sourceId: string,
    private readonly provider: ProviderRow,
    private readonly policy: HttpPolicy,
    private tokens: SmartTokens,
  ) {}

  /** The refresh under way, shared: searches running at once that meet one expired token refresh it once. */
  private refreshing: Promise<SmartTokens> | null = null;

  get patientId(): string {
    return this.tokens.patientId;
  }

  /**
   * The `category` values a search of `type` names: those of the type's granted SMART v2 scopes when each is narrowed
   * by category (a server enforcing them refuses or filters a wider search), none when a scope grants the whole type.
   */
  categoryFilter(type: string): string[] | null {
    const filter = grantedCategoryFilter(this.tokens.scope, type);
    return filter !== null && filter.length > 0 ? filter : null;
  }

  async refreshIfExpiring(): Promise<void> {
    if (this.tokens.expiresAt.getTime() - REFRESH_MARGIN_MS > Date.now() || !this.tokens.refreshToken) return;
    await this.refresh(this.tokens.accessToken);
  }

  private async refresh(staleAccessToken: string): Promise<void> {
    // Another search already refreshed the token this request was refused with: use the new one.
    if (this.tokens.accessToken !== staleAccessToken) return;
    this.refreshing ??= refreshSourceTokens(this.sourceId, this.provider, this.policy, staleAccessToken).finally(() => (this.refreshing = null));
    this.tokens = await this.refreshing;
  }

  /** A GET with the access token; a 401 refreshes the token once and tries again, a second 401 ends the fetch. */
  async get(url: string, describe: string): Promise<ReadAnswer> {
    const sentWith = this.tokens.accessToken;
    let response = await this.send(url, describe);
    if (response.status !== 401) return response;
    if (!this.tokens.refreshToken) throw new SourceError("reauthorization_required", `${describe} answered 401 and there is no refresh token.`, { status: 401 });
    await this.refresh(sentWith);
    response = await this.send(url, describe);
    if (response.status === 401) throw new SourceError("reauthorization_required", `${describe} answered 401 with a fresh token.`, { status: 401 });
    return response;
  }

  private send(url: string, describe: string): Promise<ReadAnswer> {
    const headers = { Accept: "application/fhir+json", Authorization: `Bearer ${this.tokens.accessToken}` };
    return fetchAnswer(url, { headers, redirect: "error" }, this.policy, { describe, retryUnanswered: true, outbound: this.provider.environment === "live" });
  }
}

/**
 * How deep a health system's JSON may nest. FHIR resources (contained resources, nested extensions) stay far
 * below it; the normalizer walks what arrives, so a deeper answer is refused rather than walked.
 */
const MAX_FHIR_DEPTH = 64;

/** A health system's JSON answer, refused (`invalid_response`) when it is not JSON or nests too deep to walk. */
export function readSourceJson(response: Pick<ReadAnswer, "status" | "text">, describe: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(response.text);
  } catch {
    throw new SourceError("invalid_response", `${describe} did not answer JSON.`, { status: response.status });
  }
  if (nestsDeeperThan(value, MAX_FHIR_DEPTH)) {
    throw new SourceError("invalid_response", `${describe} answered JSON nested deeper than ${MAX_FHIR_DEPTH} levels.`, { status: response.status });
  }
  return value;
}

/** Only links under the FHIR base are followed: the access token is never sent to another server. */
function nextLink(bundle: Bundle, fhirBaseUrl: string): string | null {
  const next = bundle.link?.find((link) => link.relation === "next")?.url;
  if (!next) return null;
  if (!next.startsWith(`${fhirBaseUrl}/`)) throw new SourceError("invalid_response", "A next link points outside the FHIR base URL.");
  return next;
}

/** A search's matches (none for a search whose pages went to an OnPage), or the status of a first page refused. */
type SearchResult = FhirResource[] | { status: number };
/** Called with each page's matches as it arrives; the search reads on once it has returned (see searchPages). */
type OnPage = (matches: FhirResource[]) => void | Promise<void>;

/**
 * The type searched first: a patient's labs and vital signs are most of a history, and its pages follow one
 * another, so its search is the longest; started first, the other types' searches run beside it.
 */
const LONGEST_SEARCH = "Observation";

/**
 * Every type's search, SEARCHES_AT_ONCE at a time (LONGEST_SEARCH first); results in the types' order. A search that fails fails the fetch:
 * no further type is started, and once the searches under way have ended, the failure of the first type (in the
 * types' order) is thrown, as when the types were read one after another.
 */
async function searchTypes(session: SourceSession, fhirBaseUrl: string, types: readonly string[], pageSize: number | undefined, onPage: (resourceType: string, page: number, matches: FhirResource[]) => Promise<void>): Promise<SearchResult[]> {
  const settled: PromiseSettledResult<SearchResult>[] = [];
  const startOrder = [...types.keys()].sort((left, right) => Number(types[right] === LONGEST_SEARCH) - Number(types[left] === LONGEST_SEARCH));
  let next = 0;
  let failed = false;
  const searchOne = async (resourceType: string): Promise<SearchResult> => {
    let page = 0;
    const typeOnPage = (matches: FhirResource[]) => onPage(resourceType, page++, matches);
    if (pageSize !== undefined) return searchType(session, fhirBaseUrl, resourceType, pageSize, typeOnPage);
    const result = await searchType(session, fhirBaseUrl, resourceType, DEFAULT_PAGE_SIZE, typeOnPage);
    return Array.isArray(result) || result.status !== 400 ? result : searchType(session, fhirBaseUrl, resourceType, FALLBACK_PAGE_SIZE, typeOnPage);
  };
  await Promise.all(
    Array.from({ length: Math.min(SEARCHES_AT_ONCE, types.length) }, async () => {
      while (next < types.length && !failed) {
        const index = startOrder[next++]!;
        settled[index] = await searchOne(types[index]!).then(
          (value) => ({ status: "fulfilled", value }) as const,
          (reason: unknown) => {
            failed = true;
            return { status: "rejected", reason } as const;
          },
        );
      }
    }),
  );
  const failure = settled.find((result) => result?.status === "rejected");
  if (failure) throw failure.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<SearchResult>).value);
}

/**
 * One search's matches of `resourceType`, following `next` links, or, given `onPage`, each page's matches handed to
 * it (the next page is asked for before and read once it has returned, so a search holds two pages at most); the
 * status of a first page refused with 400, 403 or 404.
 */
async function searchPages(session: SourceSession, fhirBaseUrl: string, first: URL, resourceType: string, onPage?: OnPage): Promise<SearchResult> {
  const found: FhirResource[] = [];
  const visited = new Set<string>();
  const request = (url: string) => {
    if (visited.has(url) || visited.size >= MAX_PAGES_PER_TYPE) throw new SourceError("invalid_response", `The ${resourceType} search's next links do not end.`);
    visited.add(url);
    const number = visited.size;
    const describe = `The ${resourceType} search (page ${number})`;
    const answer = session.get(url, describe);
    // Marked as handled at once: a page asked for ahead may fail while the page before it is being handed on.
    answer.catch(() => {});
    return { number, describe, answer };
  };
  let page: ReturnType<typeof request> | null = request(first.toString());
  while (page) {
    const { number, describe } = page;
    const response = await page.answer;
    if (number === 1 && [400, 403, 404].includes(response.status)) return { status: response.status };
    if (!response.ok) throw new SourceError("invalid_response", `${describe} answered ${response.status}.`, { status: response.status });
    const bundle = readSourceJson(response, describe) as Bundle;
    if (bundle?.resourceType !== "Bundle") throw new SourceError("invalid_response", `${describe} did not answer a Bundle.`);
    const matches: FhirResource[] = [];
    for (const entry of bundle.entry ?? []) {
      // `include` entries are context a server chose to add, not matches; the import reads the context it needs.
      if (entry.resource && entry.search?.mode !== "include" && entry.resource.resourceType === resourceType) matches.push(entry.resource);
    }
    const url = nextLink(bundle, fhirBaseUrl);
    // The next page is asked for before this one is handed on, so the health system answers while the import
    // works on this one: a search holds two pages at most, the one handed on and the one arriving.
    page = url === null ? null : request(url);
    if (onPage) await onPage(matches);
    else for (const match of matches) found.push(match);
  }
  return found;
}

function searchType(session: SourceSession, fhirBaseUrl: string, resourceType: string, pageSize: number, onPage: OnPage): Promise<SearchResult> {
  const first = new URL(`${fhirBaseUrl}/${resourceType}`);
  first.searchParams.set("patient", session.patientId);
  const categories = session.categoryFilter(resourceType);
  if (categories) first.searchParams.set("category", categories.join(","));
  first.searchParams.set("_count", String(pageSize));
  return searchPages(session, fhirBaseUrl, first, resourceType, onPage);
}

/** The context types in the patient's compartment (searched with `patient` as well as `_id`). */
const PATIENT_COMPARTMENT_CONTEXT = new Set(["Encounter", "Specimen"]);

/** One `_id` search of context resources (see ContextReader). */
function searchContext(session: SourceSession, fhirBaseUrl: string, resourceType: string, ids: string[]): Promise<SearchResult> {
  const first = new URL(`${fhirBaseUrl}/${resourceType}`);
  // Types in the patient's compartment name the patient too: servers that answer only compartment searches serve them.
  if (PATIENT_COMPARTMENT_CONTEXT.has(resourceType)) first.searchParams.set("patient", session.patientId);
  first.searchParams.set("_id", ids.join(","));
  first.searchParams.set("_count", String(ids.length));
  return searchPages(session, fhirBaseUrl, first, resourceType);
}

async function readPatient(session: SourceSession, fhirBaseUrl: string): Promise<Patient> {
  const describe = "The Patient read";
  const response = await session.get(`${fhirBaseUrl}/Patient/${encodeURIComponent(session.patientId)}`, describe);
  if (!response.ok) throw new SourceError("invalid_response", `${describe} answered ${response.status}.`, { status: response.status });
  const patient = readSourceJson(response, describe) as Patient;
  if (patient?.resourceType !== "Patient") throw new SourceError("invalid_response", `${describe} did not answer a Patient.`);
  return patient;
}

/**
 * What the source holds for its patient, of the given types: the Patient read (when asked for), then a search per
 * other type (`patient` and `_count`, and `category` where the grant narrows the type by it), following `next` links, and the context those resources reference, read
 * while the searches go on (ContextReader). Each request has the policy's timeout and retries (429 after
 * Retry-After, 5xx with backoff); an expiring token is refreshed first, and a 401 refreshes it once. Tokens are read
 * from and written back to the Source row, sealed.
 */
export async function fetchPatientResources(source: { id: string }, types: readonly string[] = importedResourceTypes(), options: FetchOptions = {}): Promise<FetchedPatientRecord> {
  const pages: SourcePage[] = [];
  const fetched = await fetchPatientResourcePages(source, types, async (page) => void pages.push(page), options);
  return { ...fetched, resources: resourcesInOrder(pages) };
}

/**
 * Some of a source's resources, as fetchPatientResourcePages hands them over: a search page's matches, the Patient,
 * the context read, a linked Binary. `rank` orders the pages as fetchPatientResources lists their resources (the
 * pages of different types arrive interleaved).
 */
export type SourcePage = { rank: number; resources: FhirResource[] };

/**
 * The resources of pages in the order fetchPatientResources lists them: pages by rank, each resource once (by
 * type and id), where it first came, as its last copy (a server may serve one resource on two pages).
 */
export function resourcesInOrder(pages: readonly SourcePage[]): FhirResource[] {
  const resources = new Map<string, FhirResource>();
  for (const page of [...pages].sort((left, right) => left.rank - right.rank)) {
    for (const resource of page.resources) resources.set(resourceKey(resource), resource);
  }
  return [...resources.values()];
}

/** How fetchPatientResources tells two copies of one resource: type and id (an id-less resource's id is `undefined`). */
export function resourceKey(resource: { resourceType: string; id?: string }): string {
  return detached(`${resource.resourceType}/${resource.id}`);
}

/**
 * fetchPatientResources, handing each page to `onPage` as it arrives rather than keeping them: a search reads its
 * next page once `onPage` has returned, so no more than two pages are held per search running at once. The context read
 * (at most MAX_CONTEXT_RESOURCES) and the linked Binaries follow as pages of their own.
 */
export async function fetchPatientResourcePages(
  source: { id: string },
  types: readonly string[],
  onPage: (page: SourcePage) => Promise<void>,
  options: FetchOptions = {},
): Promise<Omit<FetchedPatientRecord, "resources">> {
  const policy = options.policy ?? DEFAULT_HTTP_POLICY;
  const row = await db().source.findUniqueOrThrow({ where: { id: source.id }, include: { provider: true } });
  const session = new SourceSession(row.id, row.provider, policy, openSourceTokens(row));
  await session.refreshIfExpiring();
  const fhirBaseUrl = row.provider.fhirBaseUrl.replace(/\/+$/, "");

  const patient = types.includes("Patient") ? await readPatient(session, fhirBaseUrl) : null;
  if (patient) await onPage({ rank: 0, resources: [patient] });
  const unavailableTypes: FetchedPatientRecord["unavailableTypes"] = [];
  const searched = types.filter((type) => type !== "Patient");
  // A type's pages rank after the types asked for before it, whichever search finishes first.
  const rankOf = (resourceType: string, page: number) => 1 + searched.indexOf(resourceType) * (MAX_PAGES_PER_TYPE + 1) + page;
  const afterSearches = 1 + searched.length * (MAX_PAGES_PER_TYPE + 1);
  const context = new ContextReader(fhirBaseUrl, (resourceType, ids) => searchContext(session, fhirBaseUrl, resourceType, ids), SEARCHES_AT_ONCE);
  if (patient) context.note([patient]);
  // The C-CDA documents the DocumentReferences link, as linkedCcdaBinaries lists them: a DocumentReference served
  // twice keeps its first place and its last copy's links (a type's pages arrive in order).
  const documentLinks = new Map<string, { documentReference: string; binaryId: string }[]>();
  const results = await searchTypes(session, fhirBaseUrl, searched, options.pageSize, async (resourceType, page, matches) => {
    context.note(matches);
    for (const resource of matches) {
      if (resource.resourceType !== "DocumentReference") continue;
      const links = linkedCcdaBinaries([resource], fhirBaseUrl).map((link) => ({ documentReference: detached(link.documentReference), binaryId: detached(link.binaryId) }));
      documentLinks.set(resourceKey(resource), links);
    }
    await onPage({ rank: rankOf(resourceType, page), resources: matches });
  }).catch(async (error: unknown) => {
    await context.abandon();
    throw error;
  });
  for (const [index, resourceType] of searched.entries()) {
    const result = results[index]!;
    if (!Array.isArray(result)) unavailableTypes.push({ resourceType, status: result.status });
  }
  const { resources: contextResources, unread: unreadContext } = await context.finish();
  if (contextResources.length > 0) await onPage({ rank: afterSearches, resources: contextResources });
  if (unreadContext.length > 0) log.warn({ sourceId: row.id, unreadContext }, "context resources not read");
  const unreadDocuments: FetchedPatientRecord["unreadDocuments"] = [];
  const links = new Map<string, string>();
  for (const { binaryId, documentReference } of [...documentLinks.values()].flat()) if (!links.has(binaryId)) links.set(binaryId, documentReference);
  let read = 0;
  for (const [index, [binaryId, documentReference]] of [...links].entries()) {
    if (index >= MAX_LINKED_DOCUMENTS) {
      unreadDocuments.push({ documentReference, reason: `more than ${MAX_LINKED_DOCUMENTS} linked C-CDA documents in one import` });
      continue;
    }
    const outcome = await readLinkedBinary(session, fhirBaseUrl, binaryId);
    if (typeof outcome === "string") unreadDocuments.push({ documentReference, reason: outcome });
    else await onPage({ rank: afterSearches + 1 + read++, resources: [outcome] });
  }
  if (unreadDocuments.length > 0) log.warn({ sourceId: row.id, unreadDocuments }, "linked C-CDA documents not read");
  return { patientId: session.patientId, patient, unavailableTypes, unreadDocuments };
}

/**
 * The Binaries that DocumentReferences link as their C-CDA content (an XML content type, no inline data, a url
 * `Binary/<id>` relative or absolute under this FHIR base). A url elsewhere is not followed: the access token is
 * never sent to another server.
 */
export function linkedCcdaBinaries(resources: FhirResource[], fhirBaseUrl: string): { documentReference: string; binaryId: string }[] {
  const links = new Map<string, string>();
  for (const resource of resources) {
    if (resource.resourceType !== "DocumentReference") continue;
    for (const { attachment } of (resource as DocumentReference).content ?? []) {
      if (attachment.data !== undefined || !attachment.url || !isCcdaContentType(attachment.contentType ?? null)) continue;
      const relative = attachment.url.startsWith(`${fhirBaseUrl}/`) ? attachment.url.slice(fhirBaseUrl.length + 1) : attachment.url;
      const match = /^Binary\/([A-Za-z0-9\-.]{1,64})$/.exec(relative);
      if (match && !links.has(match[1]!)) links.set(match[1]!, `DocumentReference/${resource.id}`);
    }
  }
  return [...links].map(([binaryId, documentReference]) => ({ binaryId, documentReference }));
}

/** Reads one linked Binary; why it could not be, else the Binary. Never fails the import. */
async function readLinkedBinary(session: SourceSession, fhirBaseUrl: string, binaryId: string): Promise<string | Binary> {
  const describe = `The Binary/${binaryId} read`;
  try {
    const response = await session.get(`${fhirBaseUrl}/Binary/${encodeURIComponent(binaryId)}`, describe);
    if (!response.ok) return `${describe} answered ${response.status}`;
    if (Number(response.headers.get("content-length") ?? 0) > MAX_BINARY_ANSWER_BYTES) return `${describe} is larger than ${CCDA_MAX_BYTES / 1024 / 1024} MiB`;
    const binary = readSourceJson(response, describe) as Binary;
    if (binary?.resourceType !== "Binary" || binary.id !== binaryId) return `${describe} did not answer that Binary`;
    return binary;
  } catch (error) {
    // A refused token ends the import as any other read would; anything else leaves the document a document.
    if (error instanceof SourceError && error.code === "reauthorization_required") throw error;
    return error instanceof Error ? error.message : String(error);
  }
}
