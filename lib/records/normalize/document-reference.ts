import { attachments as readAttachments } from "./attachments";
import { CODE_SYSTEMS, codeable, codeables } from "./codes";
import { conceptKey, instantKey } from "./fact-key";
import { encounterContext } from "./encounter-context";
import { code, object, objects, string, type Json } from "./read";
import { referenceDisplay } from "./references";
import { dateTime, period } from "./times";
import type { DraftOutcome, NormalizeContext } from "./types";

export function normalizeDocumentReference(document: Json, context: NormalizeContext): DraftOutcome {
  const categories = codeables(document.category);
  const description = string(document.description);
  // type is optional in R4; a category or the description still tells a reader what the document is.
  const documentType =
    codeable(document.type) ?? categories[0] ?? (description === null ? null : { text: description, codings: [] });
  if (!documentType) return { skipReason: "DocumentReference has no type, category or description" };
  const date = dateTime(document.date);
  const documentContext = object(document.context);
  const { attachments, warnings } = readAttachments(objects(document.content).map((content) => content.attachment));
  return {
    keyParts: [conceptKey(documentType, [CODE_SYSTEMS.loinc]), instantKey(date), description],
    data: {
      category: "documents",
      kind: "documentReference",
      status: code(document.status),
      code: documentType,
      docStatus: code(document.docStatus),
      categories,
      date,
      description,
      authors: objects(document.author).flatMap((author) => referenceDisplay(author, document, context.resolve) ?? []),
      attachments,
      period: period(documentContext?.period),
      facility: encounterContext(document, context.resolve)?.location ?? codeable(documentContext?.facilityType)?.text ?? null,
      practiceSetting: codeable(documentContext?.practiceSetting),
      conclusionCodes: [],
      narrative: null,
    },
    warnings,
  };
}
