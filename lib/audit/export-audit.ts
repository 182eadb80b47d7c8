import type { AuditEntryView } from "./read-audit";

export const CSV_COLUMNS = ["id", "createdAt", "action", "actorType", "actorId", "actorLabel", "address", "applicationId", "targetType", "targetId", "before", "after"] as const;

/**
 * One CSV field: quoted (so commas, quotes and line breaks stay inside it), and defused against formula injection
 * (OWASP "CSV Injection"): a value a spreadsheet would run as a formula, one starting with =, +, -, @, a tab or a
 * carriage return, is prefixed with a single quote. Recorded values come partly from users (emails, names, URLs).
 */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? "" : value instanceof Date ? value.toISOString() : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export function csvHeader(): string {
  return `${CSV_COLUMNS.join(",")}\r\n`;
}

export function csvRow(entry: AuditEntryView): string {
  return `${CSV_COLUMNS.map((column) => csvField(entry[column])).join(",")}\r\n`;
}

/**
 * The entries as a streamed download: CSV (RFC 4180, CRLF) or a JSON array, written entry by entry as the batches
 * are read, so an export of any size holds one batch in memory.
 */
export function auditExportStream(entries: AsyncIterable<AuditEntryView>, format: "csv" | "json"): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = entries[Symbol.asyncIterator]();
  let first = true;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(format === "csv" ? csvHeader() : "["));
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        if (format === "json") controller.enqueue(encoder.encode("]\n"));
        controller.close();
        return;
      }
      const text = format === "csv" ? csvRow(next.value) : `${first ? "" : ","}\n${JSON.stringify(next.value)}`;
      first = false;
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
