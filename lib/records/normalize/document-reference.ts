import type { RecordData } from "../schemas";
import { CODE_SYSTEMS, codeable, codeables } from "./codes";
import { conceptKey, instantKey } from "./fact-key";
import { code, integer, object, objects, string, type Json } from "./read";
import { referenceDisplay } from "./references";
import { dateTime } from "./times";
import type { DraftOutcome, NormalizeContext } from "./types";

type Attachment = RecordData<"documents">["attachments"][number];

export function normalizeDocumentReference(document: Json, context: NormalizeContext): DraftOutcome {
  const categories = codeables(document.category);
  const description = string(document.description);
  // type is optional in R4; a category or the description still tells a reader what the document is.
  const documentType =
    codeable(document.type) ?? categories[0] ?? (description === null ? null : { text: description, codings: [] });
  if (!documentType) return { skipReason: "DocumentReference has no type, category or description" };
  const date = dateTime(document.date);
  return {
    keyParts: [conceptKey(documentType, [CODE_SYSTEMS.loinc]), instantKey(date), description],
    data: {
      category: "documents",
      status: code(document.status),
      code: documentType,
      docStatus: code(document.docStatus),
      categories,
      date,
      description,
      authors: objects(document.author).flatMap((author) => referenceDisplay(author, document, context.resolve) ?? []),
      attachments: objects(document.content).flatMap((content) => attachment(content.attachment) ?? []),
    },
  };
}

/** Attachment metadata only: inline content is never copied into a record, only its presence and size. */
function attachment(value: unknown): Attachment | null {
  const raw = object(value);
  if (!raw) return null;
  const inlineData = string(raw.data);
  return {
    contentType: string(raw.contentType),
    title: string(raw.title),
    url: string(raw.url),
    size: integer(raw.size) ?? (inlineData === null ? null : Buffer.byteLength(inlineData, "base64")),
    hasData: inlineData !== null,
  };
}
