import { z } from "zod";
import { CATEGORIES } from "@/lib/records/schemas";
import { anyRecordSchema } from "@/lib/users/schemas";
import { withoutDemographics } from "./demographics";

export const TEFCA_STATES = ["started", "discovered", "retrieved", "revoked", "expired"] as const;
export type TefcaState = (typeof TEFCA_STATES)[number];

const category = z.enum(CATEGORIES);
const isoTime = z.string().describe("UTC, millisecond precision, Z suffix.");
const patientId = z.string().describe("The fixed fictional patient's id from GET /tefca/config; any other is synthetic_patient_required.");

export const tefcaConfigSchema = z
  .object({
    object: z.literal("tefca_config"),
    patientId: z.string().describe("The one fictional patient the sandbox supports. Never send demographics."),
    networkVersion: z.string().describe("The version of the synthetic network's content; the same for every session."),
    organizations: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          kind: z.enum(["health-system", "hie"]).describe("A health system, or a health information exchange that republishes others' records."),
          city: z.string(),
          state: z.string(),
        }),
      )
      .describe("The fictional participants discovery queries."),
    categories: z.array(category).describe("The categories the network holds documents in; a session may ask for any of the application's allowlist."),
    states: z.array(z.enum(TEFCA_STATES)).describe("A session's states: started → discovered → retrieved → revoked, or expired 15 minutes after creation."),
    limits: z.object({
      activeSessionsPerApplication: z.number().int().describe("Active (not expired, not revoked) sessions one application may hold."),
      sessionMinutes: z.number().int().describe("A session expires this many minutes after its creation."),
    }),
  })
  .meta({ id: "TefcaConfig", description: "The synthetic TEFCA sandbox's fixed patient, participants, categories and limits." });
export type TefcaConfig = z.output<typeof tefcaConfigSchema>;

export const createTefcaSessionBodySchema = withoutDemographics(
  z
    .strictObject({
      patientId: patientId.meta({ example: "tefca-synthetic-rosa" }),
      categories: z
        .array(z.string())
        .describe(`The categories to query: a non-empty subset of the application's allowlist (${CATEGORIES.join(", ")}).`)
        .meta({ example: ["medications", "allergies", "labs"] }),
    })
    .meta({ id: "CreateTefcaSession", description: "The fixed patient and the categories to query; never demographics." }),
);

export const discoverBodySchema = withoutDemographics(
  z
    .strictObject({ patientId: patientId.optional().meta({ example: "tefca-synthetic-rosa" }) })
    .meta({ id: "DiscoverTefcaDocuments", description: "Optionally the fixed patient again; an empty body ({}) or none at all will do." }),
);

export const retrieveBodySchema = withoutDemographics(
  z
    .strictObject({
      documentIds: z
        .array(z.string())
        .describe("Document ids (doc_) from this session's discovery: non-empty, no repeats (invalid_documents).")
        .meta({ example: ["doc_cvh0medications01", "doc_nsx0allergies0001"] }),
    })
    .meta({ id: "RetrieveTefcaDocuments", description: "The selection to retrieve; it cannot be changed afterwards except in a new session." }),
);

export const revokeBodySchema = withoutDemographics(
  z.strictObject({}).meta({ id: "RevokeTefcaSession", description: "No fields; an empty body ({}) or none at all." }),
);

export const exportQuerySchema = z.object({
  format: z
    .enum(["fhir", "normalized"])
    .default("fhir")
    .describe("fhir (default): a FHIR R4 collection Bundle; normalized: the same records in the platform's categories.")
    .meta({ example: "normalized" }),
});

export const ifMatchHeadersSchema = z.object({
  "If-Match": z
    .string()
    .optional()
    .describe('The session\'s ETag (e.g. "3"), or a list of them, or *; if the session has changed since, 409 session_changed.')
    .meta({ example: '"3"' }),
});

export const tefcaDocumentSchema = z
  .object({
    id: z.string().describe("The document id (doc_)."),
    organizationId: z.string(),
    organizationName: z.string(),
    category: category,
    title: z.string(),
    date: z.string().describe("The document's clinical date."),
    resourceCount: z.number().int().describe("FHIR resources the document carries; documents at two organizations may carry the same resource."),
  })
  .meta({ id: "TefcaDocument", description: "A record group discovery found at one organization." });

export const tefcaSessionSchema = z
  .object({
    object: z.literal("tefca_session"),
    id: z.string().describe("The session id (tfs_)."),
    state: z.enum(TEFCA_STATES),
    patientId: z.string(),
    categories: z.array(category),
    documents: z.array(tefcaDocumentSchema).describe("What the last discovery found, in the session's categories; empty before discovery and after revocation."),
    selectedDocumentIds: z.array(z.string()).describe("The retrieved selection; empty before retrieval and after revocation."),
    retrievedResourceCount: z.number().int().describe("Distinct FHIR resources retrieved (a resource two selected documents share counts once)."),
    version: z.number().int().describe("Increases with every change; the ETag header carries it."),
    expiresAt: isoTime,
    createdAt: isoTime,
    updatedAt: isoTime,
  })
  .meta({ id: "TefcaSession", description: "A synthetic TEFCA session of this application." });
export type TefcaSessionResource = z.output<typeof tefcaSessionSchema>;

const fhirResourceSchema = z
  .looseObject({ resourceType: z.string(), id: z.string() })
  .meta({ id: "FhirResource", description: "A FHIR R4 resource (https://hl7.org/fhir/R4/)." });

export const tefcaRetrievalSchema = z
  .object({
    object: z.literal("tefca_retrieval"),
    session: tefcaSessionSchema,
    documents: z.array(
      z.object({
        documentId: z.string(),
        organizationId: z.string(),
        category: category,
        resources: z.array(fhirResourceSchema).describe("The document's FHIR R4 resources."),
      }),
    ),
  })
  .meta({ id: "TefcaRetrieval", description: "The session after retrieval and each selected document's FHIR R4 resources." });
export type TefcaRetrieval = z.output<typeof tefcaRetrievalSchema>;

export const tefcaFhirExportSchema = z
  .looseObject({
    resourceType: z.literal("Bundle"),
    id: z.string(),
    type: z.literal("collection"),
    timestamp: z.string(),
    entry: z.array(z.object({ fullUrl: z.string(), resource: fhirResourceSchema })),
  })
  .meta({ id: "TefcaFhirExport", description: "format=fhir: a FHIR R4 collection Bundle of every retrieved resource, each once, with its fullUrl at the organization that holds it." });

export const tefcaNormalizedExportSchema = z
  .object({
    object: z.literal("tefca_export"),
    format: z.literal("normalized"),
    sessionId: z.string(),
    patientId: z.string(),
    categories: z
      .record(z.string(), z.array(anyRecordSchema))
      .describe("Each of the session's categories and its normalized records; a fact two organizations hold is one record listing both sources."),
    meta: z.object({ schemaVersion: z.literal(2), generatedAt: isoTime }),
  })
  .meta({ id: "TefcaNormalizedExport", description: "format=normalized: the retrieved records in the platform's categories." });

export const tefcaExportSchema = z.union([tefcaFhirExportSchema, tefcaNormalizedExportSchema]);
