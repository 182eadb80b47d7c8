import type pg from "pg";
import { pgPool } from "@/lib/db";
import { newId } from "@/lib/ids";

/** Bytes an export file holds before the next resource of its type starts a new file (part). */
export const FILE_BYTES = 32 * 1024 * 1024;
/** Bytes buffered per open file before they are stored as one chunk row: what an export holds in memory per type. */
export const CHUNK_BYTES = 1024 * 1024;

/** An open file: its counts, and the chunk being filled (lines are encoded straight into it, `used` bytes so far). */
type OpenFile = { id: string; type: string; part: number; count: number; bytes: number; sequence: number; chunk: Buffer; used: number };

/** A stored file of an export, as the manifest lists it. */
export type ExportFileEntry = { type: string; fileId: string; count: number };

/**
 * Stores one chunk. Its commit does not wait for the disk (`synchronous_commit` off for this statement's transaction
 * alone, set_config's `is_local`): an export that does not complete is written again from the start by its next
 * attempt (its earlier files deleted first), and the commit that completes it waits for the disk, which writes
 * everything logged before it, these chunks included. Waiting for the disk once per chunk was most of PostgreSQL's
 * share of an export.
 */
const STORE_CHUNK = `INSERT INTO "FhirExportChunk" ("fileId", "sequence", "data")
  SELECT $1::text, $2::int, $3::bytea FROM (SELECT set_config('synchronous_commit', 'off', true)) AS "unflushed"`;

/**
 * The ndjson files of one export, written a line at a time: each type has one open file whose bytes are buffered up
 * to CHUNK_BYTES and then stored as a FhirExportChunk row, so memory is bounded by the number of types, not by the
 * export's size; a file that reaches `fileBytes` is closed and the type's next resource starts a new part.
 */
export class NdjsonFiles {
  private readonly open = new Map<string, OpenFile>();
  private readonly parts = new Map<string, number>();
  /** A chunk buffer no chunk uses any more (the last one stored), for the next chunk to fill. */
  private spare: Buffer | undefined;
  /** The chunk being stored: what its INSERT threw, or undefined. */
  private storing: Promise<unknown> = Promise.resolve(undefined);

  /** A chunk's size: CHUNK_BYTES, or less for smaller files (a file never holds more than `fileBytes` but for one long line). */
  private readonly chunkBytes: number;

  constructor(
    private readonly exportId: string,
    private readonly fileBytes = FILE_BYTES,
    private readonly pool: pg.Pool = pgPool(),
  ) {
    this.chunkBytes = Math.min(CHUNK_BYTES, fileBytes);
  }

  /** Writes one resource of `type`, given as its JSON text (one line: JSON text holds no raw newline). */
  async write(type: string, json: string): Promise<void> {
    const length = Buffer.byteLength(json) + 1;
    let file = this.open.get(type);
    if (file && file.count > 0 && file.bytes + length > this.fileBytes) {
      await this.close(file);
      file = undefined;
    }
    file ??= await this.start(type);
    if (file.used + length > file.chunk.length) {
      await this.flush(file);
      // A line longer than a chunk is a chunk of its own.
      if (length > file.chunk.length) file.chunk = Buffer.allocUnsafe(length);
    }
    file.used += file.chunk.write(json, file.used);
    file.chunk[file.used++] = 10;
    file.bytes += length;
    file.count += 1;
  }

  /** Stores what is buffered and every file's counts. */
  async finish(): Promise<void> {
    for (const file of [...this.open.values()]) await this.close(file);
  }

  private async start(type: string): Promise<OpenFile> {
    const part = (this.parts.get(type) ?? 0) + 1;
    this.parts.set(type, part);
    const file: OpenFile = { id: newId("fhf_"), type, part, count: 0, bytes: 0, sequence: 0, chunk: Buffer.allocUnsafe(this.chunkBytes), used: 0 };
    await this.pool.query(`INSERT INTO "FhirExportFile" ("id", "exportId", "resourceType", "part") VALUES ($1, $2, $3, $4)`, [file.id, this.exportId, type, part]);
    this.open.set(type, file);
    return file;
  }

  /**
   * Stores what the file has buffered as its next chunk while the export goes on writing: at most one chunk is being
   * stored at a time (the previous one is waited for first, and its error thrown here), so memory stays bounded.
   */
  private async flush(file: OpenFile): Promise<void> {
    if (file.used === 0) return;
    const full = file.chunk;
    const data = full.subarray(0, file.used);
    file.sequence += 1;
    await this.stored();
    // The buffer of the chunk stored last is free again: reused rather than left to the garbage collector, whose
    // lagging frees of a fresh megabyte per chunk raised the worker's peak with the export's size.
    file.chunk = this.spare ?? Buffer.allocUnsafe(this.chunkBytes);
    this.spare = undefined;
    file.used = 0;
    const storing = this.pool.query(STORE_CHUNK, [file.id, file.sequence, data]);
    this.storing = storing.then(
      () => {
        if (full.length === this.chunkBytes) this.spare = full;
        return undefined;
      },
      (error: unknown) => error,
    );
  }

  /** Waits for the chunk being stored, if any; throws its error. */
  private async stored(): Promise<void> {
    const error = await this.storing;
    this.storing = Promise.resolve(undefined);
    if (error !== undefined) throw error;
  }

  private async close(file: OpenFile): Promise<void> {
    await this.flush(file);
    await this.stored();
    await this.pool.query(`UPDATE "FhirExportFile" SET "count" = $2, "bytes" = $3 WHERE "id" = $1`, [file.id, file.count, file.bytes]);
    this.open.delete(file.type);
  }
}

/** The export's non-empty files, in the order the manifest lists them. */
export async function exportFiles(exportId: string): Promise<ExportFileEntry[]> {
  const { rows } = await pgPool().query<ExportFileEntry>(
    `SELECT "resourceType" AS "type", "id" AS "fileId", "count" FROM "FhirExportFile" WHERE "exportId" = $1 AND "count" > 0 ORDER BY "resourceType", "part"`,
    [exportId],
  );
  return rows;
}

/** Deletes an export's files (their chunks cascade). */
export async function deleteExportFiles(exportId: string, client: Pick<pg.Pool, "query"> = pgPool()): Promise<number> {
  const { rowCount } = await client.query(`DELETE FROM "FhirExportFile" WHERE "exportId" = $1`, [exportId]);
  return rowCount ?? 0;
}
