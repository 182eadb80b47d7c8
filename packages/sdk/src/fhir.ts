import type { Bundle, FhirResource, Patient } from "fhir/r4.js";
import type { Client } from "openapi-fetch";
import type { paths } from "./schema.js";

/** A FHIR R4 resource type the API serves, and its resource (R4 types from @types/fhir). */
export type FhirType = FhirResource["resourceType"];
export type FhirResourceOf<T extends FhirType> = Extract<FhirResource, { resourceType: T }>;

/** Search parameters: patient, _id, _count, _lastUpdated, date, category, code, status, _include...; repeat with an array. */
export type FhirSearchParams = Record<string, string | number | readonly (string | number)[]>;

type Answer = { data?: unknown; error?: unknown; response: Response };
type Unwrap = <T>(answer: Promise<Answer>) => Promise<T>;

/**
 * Typed reads of the FHIR R4 API (`/fhir`, issue 52): the same consent as the JSON records, the resources as the
 * health systems sent them. Searches follow the server's next links (signed cursors) until the matches end.
 */
export class FhirReads {
  constructor(
    private readonly api: Client<paths>,
    private readonly data: Unwrap,
  ) {}

  /** One resource by type and id (404 ChartkeyError when it is not shared with the key now). */
  read<T extends FhirType>(resourceType: T, id: string): Promise<FhirResourceOf<T>> {
    if (resourceType === "Patient") return this.patient(id) as Promise<FhirResourceOf<T>>;
    return this.data(this.api.GET("/fhir/{resourceType}/{id}", { params: { path: { resourceType, id } } }));
  }

  /** A subject's Patient (the subject id is the Patient id). */
  patient(subject: string): Promise<Patient> {
    return this.data(this.api.GET("/fhir/Patient/{subject}", { params: { path: { subject } } }));
  }

  /** One searchset page. */
  searchPage<T extends FhirType>(resourceType: T, params: FhirSearchParams = {}): Promise<Bundle<FhirResourceOf<T>>> {
    return this.data(this.api.GET("/fhir/{resourceType}", { params: { path: { resourceType }, query: asQuery(params) as never }, querySerializer: serialize }));
  }

  /** Every match of a search (included resources too, when `_include` asks), page after page. */
  async *search<T extends FhirType>(resourceType: T, params: FhirSearchParams = {}): AsyncGenerator<FhirResource> {
    let page: Bundle = await this.searchPage(resourceType, params);
    for (;;) {
      for (const entry of page.entry ?? []) if (entry.resource && entry.search?.mode !== "outcome") yield entry.resource;
      const next = page.link?.find((link) => link.relation === "next")?.url;
      if (!next) return;
      page = await this.searchPage(resourceType, fromUrl(next));
    }
  }

  /** Everything the consent shares of a subject (Patient/$everything), page after page. */
  async *everything(subject: string, options: { types?: FhirType[]; since?: string; count?: number } = {}): AsyncGenerator<FhirResource> {
    let query: FhirSearchParams = {
      ...(options.types ? { _type: options.types.join(",") } : {}),
      ...(options.since ? { _since: options.since } : {}),
      ...(options.count ? { _count: options.count } : {}),
    };
    for (;;) {
      const page: Bundle = await this.data(this.api.GET("/fhir/Patient/{subject}/$everything", { params: { path: { subject }, query: asQuery(query) as never } }));
      for (const entry of page.entry ?? []) if (entry.resource) yield entry.resource;
      const next = page.link?.find((link) => link.relation === "next")?.url;
      if (!next) return;
      query = fromUrl(next);
    }
  }
}

function asQuery(params: FhirSearchParams): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? value.map(String) : String(value)]));
}

/** A next link's parameters, to send again to the same operation. */
function fromUrl(url: string): FhirSearchParams {
  const params: Record<string, string[]> = {};
  for (const [name, value] of new URL(url).searchParams) (params[name] ??= []).push(value);
  return params;
}

/** Repeated parameters (date=ge..&date=lt..) as FHIR expects them, not comma-joined. */
function serialize(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) search.append(name, String(item));
  return search.toString();
}
