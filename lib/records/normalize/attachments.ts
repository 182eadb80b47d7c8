import type { RecordData } from "../schemas";
import { htmlText } from "./html-text";
import { integer, object, string } from "./read";

type Attachment = RecordData<"documents">["attachments"][number];

/** How much of an inline text attachment a record carries: a note readable in full, yet a record of bounded size. */
export const ATTACHMENT_TEXT_BYTES = 64 * 1024;
export const TEXT_CUT_WARNING = "attachment text is longer than 64 KiB: its text is cut at 64 KiB";

/**
 * Attachment metadata, and the text of inline text/plain or text/html content (a note such as Synthea's history and
 * physical), bounded: other inline content (PDF, images, XML) is never copied, only its presence and size.
 */
export function attachments(values: unknown[]): { attachments: Attachment[]; warnings: string[] } {
  const read = values.flatMap((value) => attachment(value) ?? []);
  return { attachments: read.map((item) => item.attachment), warnings: read.some((item) => item.cut) ? [TEXT_CUT_WARNING] : [] };
}

function attachment(value: unknown): { attachment: Attachment; cut: boolean } | null {
  const raw = object(value);
  if (!raw) return null;
  const contentType = string(raw.contentType);
  const inlineData = string(raw.data);
  const text = inlineData === null ? null : inlineText(contentType, inlineData);
  return {
    attachment: {
      contentType,
      title: string(raw.title),
      url: string(raw.url),
      size: integer(raw.size) ?? (inlineData === null ? null : Buffer.byteLength(inlineData, "base64")),
      hasData: inlineData !== null,
      text: text?.text ?? null,
    },
    cut: text?.cut ?? false,
  };
}

function inlineText(contentType: string | null, base64: string): { text: string; cut: boolean } | null {
  const [mediaType = "", ...parameters] = (contentType ?? "").split(";").map((part) => part.trim().toLowerCase());
  if (mediaType !== "text/plain" && mediaType !== "text/html") return null;
  const charset = parameters.find((parameter) => parameter.startsWith("charset="))?.slice("charset=".length).replace(/"/g, "") || "utf-8";
  let decoded: string;
  try {
    decoded = new TextDecoder(charset).decode(Buffer.from(base64, "base64"));
  } catch {
    // A charset Node cannot decode: the text is not guessed at.
    return null;
  }
  const text = mediaType === "text/html" ? htmlText(decoded) : decoded;
  if (text === null || text.trim() === "") return null;
  if (Buffer.byteLength(text, "utf8") <= ATTACHMENT_TEXT_BYTES) return { text, cut: false };
  // Cut on a character boundary: a character split by the byte bound decodes as U+FFFD, which is dropped.
  return { text: Buffer.from(text, "utf8").subarray(0, ATTACHMENT_TEXT_BYTES).toString("utf8").replace(/\uFFFD+$/, ""), cut: true };
}
