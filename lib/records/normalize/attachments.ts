import type { RecordData } from "../schemas";
import { integer, object, string } from "./read";

type Attachment = RecordData<"documents">["attachments"][number];

/** Attachment metadata only: inline content is never copied into a record, only its presence and size. */
export function attachment(value: unknown): Attachment | null {
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
