import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

/** A row's values in the table's column order, already in PostgreSQL's text input form; null is SQL NULL. */
export type CopyRow = readonly (string | null)[];

// COPY's text format: backslash, newline, carriage return and tab are the characters that must be escaped.
const SPECIAL = /[\\\n\r\t]/;
const SPECIALS = /[\\\n\r\t]/g;
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function field(value: string | null): string {
  if (value === null) return "\\N";
  return SPECIAL.test(value) ? value.replace(SPECIALS, (character) => ESCAPES[character]!) : value;
}

/**
 * Rows joined into chunks of about this many characters: one write per chunk rather than per row, and each chunk
 * below V8's large objects (strings over 128 kB are old at birth: a big import's chunks were garbage only a full
 * collection frees, and the heap grew by a few times its live size before one ran).
 */
const CHUNK_CHARS = 64 * 1024;

function* chunks(rows: Iterable<CopyRow>): Generator<string> {
  let chunk = "";
  for (const row of rows) {
    chunk += `${row.map(field).join("\t")}\n`;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}

/**
 * Writes rows into `table` with `COPY ... FROM STDIN`, PostgreSQL's bulk load: rows stream to the server as they are
 * encoded (never one parameter holding them all), and the server parses each value once, by its column's type. The
 * table and column names are the caller's constants, quoted here; no value is ever part of the statement. Columns
 * left out take their defaults. Runs on the caller's connection, so inside its transaction. Returns the rows written.
 */
export async function copyRows(client: pg.ClientBase, table: string, columns: readonly string[], rows: Iterable<CopyRow>): Promise<number> {
  const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const copy = client.query(copyFrom(`COPY ${quoted(table)} (${columns.map(quoted).join(", ")}) FROM STDIN`));
  await pipeline(Readable.from(chunks(rows), { objectMode: false }), copy);
  return copy.rowCount;
}
