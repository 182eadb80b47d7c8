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

/** Text gathered before one write (the record spool appends a few hundred bytes at a time); longer text is written at once. */
const WRITE_BUFFER_BYTES = 1 << 20;
const RESOURCES_PER_PIECE = 50;
/** readMany reads two ranges at most this far apart as one, and no more than MERGED_READ_BYTES at once. */
const MERGED_GAP_BYTES = 32 * 1024;
const MERGED_READ_BYTES = 4 << 20;

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
  private size = 0;
  /** Reused for every read and write (see bytes). */
  private readBuffer = Buffer.allocUnsafeSlow(WRITE_BUFFER_BYTES);
  private readonly writeBuffer = Buffer.allocUnsafeSlow(WRITE_BUFFER_BYTES);
  /** Bytes of writeBuffer appended and not yet written: written a megabyte at a time, not a record at a time. */
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
   * the heap before it is collected), and its text (about 75 kB) stays below V8's large objects.
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
   * The pages, once every page is in, as `replay` needs them: each page's keys are kept only where another copy of
   * one of its resources came (a server that pages consistently sends none). Held through the import, they would be
   * a string per resource.
   */
  static settled(pages: readonly SpilledPage[]): SpilledPage[] {
    const repeated = repeatedKeys(pages);
    return pages.map((page) => (page.keys?.some((key) => repeated.has(key)) ? page : { ...page, keys: null }));
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
        lengths.push(length);
        return offsets.push(offset) - 1;
      },
      read: (index) => this.read(offsets[index]!, lengths[index]!),
      readMany: (indices) => this.readMany(indices.map((index) => ({ offset: offsets[index]!, length: lengths[index]! }))),
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

  /**
   * Text encoded straight into the write buffer: text joined into a megabyte string first is a string of the large
   * object space, garbage only a full collection frees, of which V8 lets a few times the live heap gather.
   */
  private append(text: string): { offset: number; length: number } {
    const length = Buffer.byteLength(text, "utf8");
    if (this.pendingBytes + length > this.writeBuffer.length) this.flush();
    const offset = this.size;
    if (length > this.writeBuffer.length) this.writeAt(Buffer.from(text, "utf8"), length, offset);
    else {
      this.writeBuffer.write(text, this.pendingBytes, "utf8");
      this.pendingBytes += length;
    }
    this.size += length;
    return { offset, length };
  }


  /**
   * One range, read exactly: records are read back in read order, which only the whole source decides and which
   * jumps about the file; a block cache read 64 KiB for each record of about one and spent a fifth of an import's CPU.
   */
  private read(offset: number, length: number): string {
    if (this.pendingBytes > 0) this.flush();
    return this.bytes(offset, length).toString("utf8");
  }

  /**
   * Ranges, in the order asked, read in the order they lie in the file, neighbours within MERGED_GAP_BYTES of each
   * other by one read (a record is about a kilobyte; a system call costs about as much as copying tens of them).
   */
  private readMany(ranges: readonly { offset: number; length: number }[]): string[] {
    if (this.pendingBytes > 0) this.flush();
    const texts: string[] = new Array<string>(ranges.length);
    const order = ranges.map((_, index) => index).sort((left, right) => ranges[left]!.offset - ranges[right]!.offset);
    for (let first = 0; first < order.length; ) {
      const start = ranges[order[first]!]!.offset;
      let end = start + ranges[order[first]!]!.length;
      let last = first + 1;
      for (; last < order.length; last++) {
        const next = ranges[order[last]!]!;
        if (next.offset - end > MERGED_GAP_BYTES || next.offset + next.length - start > MERGED_READ_BYTES) break;
        end = Math.max(end, next.offset + next.length);
      }
      const bytes = this.bytes(start, end - start);
      for (let at = first; at < last; at++) {
        const { offset, length } = ranges[order[at]!]!;
        texts[order[at]!] = bytes.toString("utf8", offset - start, offset - start + length);
      }
      first = last;
    }
    return texts;
  }

  /**
   * A range of the file, as written, in a buffer this spill reuses (valid until its next read): a fresh buffer of
   * megabytes is fresh memory, and on this machine's virtual machine each new page of it is a fault of about 13 µs,
   * more than copying the page.
   */
  private bytes(offset: number, length: number): Buffer {
    if (this.readBuffer.length < length) this.readBuffer = Buffer.allocUnsafeSlow(Math.max(length, this.readBuffer.length * 2));
    const data = this.readBuffer;
    let read = 0;
    while (read < length) {
      const bytes = fs.readSync(this.fd, data, read, length - read, offset + read);
      if (bytes === 0) throw new Error("the import spill ended early");
      read += bytes;
    }
    return data.subarray(0, length);
  }

  private flush(): void {
    this.writeAt(this.writeBuffer, this.pendingBytes, this.size - this.pendingBytes);
    this.pendingBytes = 0;
  }

  private writeAt(data: Buffer, length: number, at: number): void {
    let written = 0;
    while (written < length) written += fs.writeSync(this.fd, data, written, length - written, at + written);
  }


}

/** The keys that more than one resource of the distinct pages has (none, from a server that pages consistently). */
function repeatedKeys(pages: readonly SpilledPage[]): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const page of pages) for (const key of page.keys ?? []) (seen.has(key) ? repeated : seen).add(key);
  return repeated;
}
