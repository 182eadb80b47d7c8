import { sha256Hex } from "@/lib/sha256";
import { convertCcdaToFhir, convertXmlToCcda, type Ccda } from "@medplum/ccda";
import { isObject, object, objects, string, type Json } from "./read";
import type { ResourceEntry } from "./references";

/** The document a resource was read from: the DocumentReference (or Binary) that carried the C-CDA. */
export type DocumentOrigin = { resourceType: string; resourceId: string | null };

/** How much C-CDA one attachment may hold to be read; a larger one stays a document only, with a warning. */
export const CCDA_MAX_BYTES = 8 * 1024 * 1024;

const CCDA_TYPES = new Set(["application/xml", "text/xml", "application/hl7-v3+xml", "application/cda+xml"]);
const CLINICAL_DOCUMENT = /<(?:[A-Za-z_][\w.-]*:)?ClinicalDocument[\s>]/;
/** C-CDA's Medications Section, entries optional and entries required (the second also lists the first). */
const MEDICATIONS_SECTION = "2.16.840.1.113883.10.20.22.2.1";
const MEDICATIONS_SECTION_ENTRIES_REQUIRED = "2.16.840.1.113883.10.20.22.2.1.1";

export type ExpandedDocuments = {
  /** The resources each C-CDA document's sections became, with the document they came from. */
  derived: { resource: Json; origin: DocumentOrigin }[];
  /** Per document resource, why its C-CDA could not be read (becomes a warning on its documents record). */
  warnings: Map<Json, string[]>;
};

/**
 * The C-CDA documents of a batch, as FHIR resources (@medplum/ccda converts each to a document Bundle): a
 * DocumentReference's attachment sent inline (`data`) or by `url` naming a Binary of the batch (the importer fetches
 * those), and a Binary that no DocumentReference names. The document itself stays a documents record; what its
 * sections yield is normalized beside the source's FHIR resources and merged with the same facts from them.
 * Resource ids are made deterministic (the converter invents some), so a re-import reads the same ids.
 */
export function expandCcdaDocuments(entries: ResourceEntry[]): ExpandedDocuments {
  const derived: ExpandedDocuments["derived"] = [];
  const warnings = new Map<Json, string[]>();
  const binaries = new Map<string, Json>();
  for (const { resource } of entries) {
    const id = string(resource.id);
    if (resource.resourceType === "Binary" && id !== null) binaries.set(id, resource);
  }
  const named = new Set<Json>();
  const read = (document: Json, attachment: { contentType: string | null; data: string | null }, ordinal: number) => {
    const origin = { resourceType: String(document.resourceType), resourceId: string(document.id) };
    const outcome = ccdaResources(attachment, origin, ordinal);
    if (outcome === null) return;
    if ("warning" in outcome) warnings.set(document, [...(warnings.get(document) ?? []), outcome.warning]);
    else derived.push(...outcome.resources.map((resource) => ({ resource, origin })));
  };

  for (const { resource } of entries) {
    if (resource.resourceType !== "DocumentReference") continue;
    objects(resource.content).forEach((content, ordinal) => {
      const attachment = object(content.attachment);
      if (!attachment) return;
      const data = string(attachment.data);
      const binary = data === null ? binaryNamed(string(attachment.url), binaries) : null;
      if (binary) named.add(binary);
      const contentType = string(attachment.contentType) ?? string(binary?.contentType);
      read(resource, { contentType, data: data ?? string(binary?.data) }, ordinal);
    });
  }
  for (const binary of binaries.values()) {
    if (!named.has(binary)) read(binary, { contentType: string(binary.contentType), data: string(binary.data) }, 0);
  }
  return { derived, warnings };
}

/** The Binary of the batch an attachment URL names (`Binary/id`, relative or absolute), if any. */
export function binaryNamed<B>(url: string | null, binaries: ReadonlyMap<string, B>): B | null {
  const match = url === null ? null : /(?:^|\/)Binary\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/.exec(url);
  return match ? (binaries.get(match[1]!) ?? null) : null;
}

/** Whether an attachment's content type is one a C-CDA document is sent as (XML). */
export function isCcdaContentType(contentType: string | null): boolean {
  return CCDA_TYPES.has((contentType ?? "").split(";")[0]!.trim().toLowerCase());
}

/**
 * The resources one attachment's C-CDA document becomes (ids made deterministic from the document and the
 * attachment's ordinal), or why it could not be read; null when the attachment holds no C-CDA document.
 */
export function ccdaResources(attachment: { contentType: string | null; data: string | null }, origin: DocumentOrigin, ordinal: number): { resources: Json[] } | { warning: string } | null {
  if (attachment.data === null || !isCcdaContentType(attachment.contentType)) return null;
  if ((attachment.data.length * 3) / 4 > CCDA_MAX_BYTES) return { warning: `C-CDA document larger than ${CCDA_MAX_BYTES / 1024 / 1024} MiB is not read` };
  const xml = Buffer.from(attachment.data, "base64").toString("utf8");
  if (!CLINICAL_DOCUMENT.test(xml.slice(0, 4096))) return null;
  let bundle: unknown;
  try {
    // Sections the converter does not know are left out rather than failing the whole document.
    bundle = convertCcdaToFhir(withMedicationsSectionTemplate(convertXmlToCcda(xml)), { ignoreUnsupportedSections: true });
  } catch (error) {
    return { warning: `C-CDA document could not be converted: ${error instanceof Error ? error.message : String(error)}` };
  }
  const resources = objects(object(bundle)?.entry).flatMap((entry) => (isObject(entry.resource) ? [entry.resource] : []));
  return { resources: withDeterministicIds(resources, `ccda-${digest(`${origin.resourceType}/${origin.resourceId ?? ""}#${ordinal}`)}`) };
}

/**
 * @medplum/ccda picks a section's entries by its first templateId and reads medications only under the
 * entries-required template: a Medications Section that names the entries-optional one first (HL7's own sample CCD
 * does) would lose every medication. Its first templateId is made the entries-required one; the entries are the same.
 */
function withMedicationsSectionTemplate(ccda: Ccda): Ccda {
  for (const { section } of ccda.component?.structuredBody?.component ?? []) {
    for (const one of section ?? []) {
      if (one.templateId?.[0]?.["@_root"] === MEDICATIONS_SECTION) one.templateId = [{ "@_root": MEDICATIONS_SECTION_ENTRIES_REQUIRED }, ...one.templateId];
    }
  }
  return ccda;
}

/**
 * Renames every resource `prefix-N` in order of first appearance, and every reference and contained id to it, so
 * that ids do not change between imports of the same document (the converter generates random ones where the
 * C-CDA id is not a UUID). Ids are replaced as whole JSON strings or reference tails, never inside other text; the
 * converter's contained Medication is `med-<id>`, referenced as `#med-<id>`, and both are renamed alike.
 */
function withDeterministicIds(resources: Json[], prefix: string): Json[] {
  const renamed = new Map<string, string>();
  for (const resource of resources) {
    const id = string(resource.id);
    if (id !== null && !renamed.has(id)) renamed.set(id, `${prefix}-${renamed.size + 1}`);
  }
  const json = JSON.stringify(resources).replace(/"((?:[A-Za-z]+\/|#?(?:med-)?)?)([A-Za-z0-9\-.]{1,64})"/g, (whole, head: string, id: string) => {
    const replacement = renamed.get(id);
    return replacement === undefined ? whole : `"${head}${replacement}"`;
  });
  return JSON.parse(json) as Json[];
}

function digest(text: string): string {
  return sha256Hex(text).slice(0, 12);
}
