import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FhirResource } from "fhir/r4";
import type { RecordSpool } from "@/lib/records";
import { resourceKey, type SourcePage } from "@/lib/sources";

/** A page as the spill holds it: where its resources' JSON lies, and each resource's type and id. */
export type SpilledPage = {
  rank: number;
  offset: number;
  length: number;
  /** resourceKey of each resource, for the order fetchPatientResources lists them in (resourcesInOrder); null: kept as given. */
  keys: string[] | null;
};

/** Text gathered before one write: the record spool appends a few hundred bytes at a time. */
const WRITE_BUFFER_BYTES = 1 << 20;
const RESOURCES_PER_PIECE = 100;
/** Reads up to this long (records) go through the blocks kept (CACHED_BLOCKS of them); longer ones (pages) alone. */
const CACHED_BLOCK_BYTES = 64 * 1024;
const CACHED_BLOCKS = 8;

/**
 * Where one import keeps what it has read and drafted while the rest of the source is read, off the heap: the
 * source's pages (read back twice, see PagedNormalization) and its drafted records (read back once). A temporary
 * file readable by this process's user only, removed as soon as it is opened: it lives as long as this process
 * holds it open, so a worker that dies leaves nothing behind, and no other process can open it by name. It is not
 * encrypted, as PostgreSQL's own temporary files (a sort or hash of the same records) are not: encrypting it in
 * counter mode cost this machine about a third of a 10,000-resource import's CPU time (AES at about 230 MB/s here,
 * over four times the source: written, read twice, its records written and read).
 */
export class ImportSpill {
  private readonly fd: number;
  private readonly blocksRead = new Map<number, Buffer>();
  private size = 0;
  /** Appended text not yet written: written a megabyte at a time, not a record at a time. */
  private pending = "";
  private pendingBytes = 0;
  private closed = false;

  constructor(directory = os.tmpdir()) {
    const file = path.join(directory, `chartkey-import-${randomUUID()}`);
    this.fd = fs.openSync(file, "wx+", 0o600);
    fs.unlinkSync(file);
  }

  /**
   * Appends a page of resources, kept as given or (with `distinct`) to be listed as fetchPatientResources lists them,
   * as pieces of RESOURCES_PER_PIECE: each is read back alone, so what a pass reads dies young (a thousand parsed
   * resources outlive the allocations of their normalization and reach the old generation, whose garbage grows
   * the heap before it is collected).
   */
  appendPage(page: SourcePage, distinct = true): SpilledPage[] {
    const pieces: SpilledPage[] = [];
    for (let start = 0; start < page.resources.length || start === 0; start += RESOURCES_PER_PIECE) {
      const resources = page.resources.slice(start, start + RESOURCES_PER_PIECE);
      const { offset, length } = this.append(JSON.stringify(resources));
      pieces.push({ rank: page.rank, offset, length, keys: distinct ? resources.map(resourceKey) : null });
    }
    return pieces;
  }

  /**
   * The pages' resources in the order fetchPatientResources lists them (resourcesInOrder): pages by rank, each
   * resource of the distinct pages once, where it first came, as its last copy. Each call reads them anew.
   */
  *replay(pages: readonly SpilledPage[]): Generator<FhirResource[]> {
    // Stable: a page's pieces keep their order.
    const ordered = [...pages].sort((left, right) => left.rank - right.rank);
    const repeated = repeatedKeys(ordered);
    const last = new Map<string, { page: SpilledPage; index: number }>();
    for (const page of ordered) page.keys?.forEach((key, index) => repeated.has(key) && last.set(key, { page, index }));
    const listed = new Set<string>();
    for (const page of ordered) {
      const resources = this.readPage(page);
      if (page.keys === null || !page.keys.some((key) => repeated.has(key))) {
        yield resources;
        continue;
      }
      const listing: FhirResource[] = [];
      page.keys.forEach((key, index) => {
        if (!repeated.has(key)) listing.push(resources[index]!);
        else if (!listed.has(key)) {
          listed.add(key);
          const copy = last.get(key)!;
          listing.push(copy.page === page ? resources[copy.index]! : this.readPage(copy.page)[copy.index]!);
        }
      });
      yield listing;
    }
  }

  /** A RecordSpool in this file. */
  recordSpool(): RecordSpool {
    const offsets: number[] = [];
    const lengths: number[] = [];
    return {
      append: (text) => {
        const { offset, length } = this.append(text);
        offsets.push(offset);
        lengths.push(length);
      },
      read: (index) => this.read(offsets[index]!, lengths[index]!),
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
  }

  private readPage(page: SpilledPage): FhirResource[] {
    return JSON.parse(this.read(page.offset, page.length)) as FhirResource[];
  }

  private append(text: string): { offset: number; length: number } {
    const length = Buffer.byteLength(text, "utf8");
    const offset = this.size;
    this.pending += text;
    this.pendingBytes += length;
    this.size += length;
    if (this.pendingBytes >= WRITE_BUFFER_BYTES) this.flush();
    return { offset, length };
  }

  private read(offset: number, length: number): string {
    if (this.pendingBytes > 0) this.flush();
    if (length > CACHED_BLOCK_BYTES) return this.bytes(offset, length).toString("utf8");
    const first = Math.floor(offset / CACHED_BLOCK_BYTES);
    const last = Math.floor((offset + length - 1) / CACHED_BLOCK_BYTES);
    const start = offset - first * CACHED_BLOCK_BYTES;
    if (first === last) return this.cachedBlock(first).toString("utf8", start, start + length);
    return Buffer.concat([this.cachedBlock(first).subarray(start), this.cachedBlock(last)]).toString("utf8", 0, length);
  }

  /**
   * One aligned block of the file, from a few kept: records are read back in read order, which only the
   * whole source decides, but which keeps to a few neighbourhoods of the file at a time (a category's newest
   * records, written page by page), so most reads find their block kept.
   */
  private cachedBlock(index: number): Buffer {
    const kept = this.blocksRead.get(index);
    if (kept) {
      this.blocksRead.delete(index);
      this.blocksRead.set(index, kept);
      return kept;
    }
    const offset = index * CACHED_BLOCK_BYTES;
    const block = this.bytes(offset, Math.min(CACHED_BLOCK_BYTES, this.size - offset));
    if (this.blocksRead.size >= CACHED_BLOCKS) this.blocksRead.delete(this.blocksRead.keys().next().value!);
    this.blocksRead.set(index, block);
    return block;
  }

  /** A range of the file, as written. */
  private bytes(offset: number, length: number): Buffer {
    const data = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const bytes = fs.readSync(this.fd, data, read, length - read, offset + read);
      if (bytes === 0) throw new Error("the import spill ended early");
      read += bytes;
    }
    return data;
  }

  private flush(): void {
    const data = Buffer.from(this.pending, "utf8");
    const at = this.size - this.pendingBytes;
    let written = 0;
    while (written < data.length) written += fs.writeSync(this.fd, data, written, data.length - written, at + written);
    this.pending = "";
    this.pendingBytes = 0;
    // The last block kept may have been read short of what now follows it.
    this.blocksRead.clear();
  }
}

/** The keys that more than one resource of the distinct pages has (none, from a server that pages consistently). */
function repeatedKeys(pages: readonly SpilledPage[]): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const page of pages) for (const key of page.keys ?? []) (seen.has(key) ? repeated : seen).add(key);
  return repeated;
}
