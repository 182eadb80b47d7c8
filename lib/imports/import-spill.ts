import { createCipheriv, randomBytes, randomUUID } from "node:crypto";
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
const BLOCK = 16;
/** Reads up to this long are decrypted with the reused block cipher; longer ones (pages) by a counter-mode cipher of their own. */
const SHORT_READ_BYTES = 16 * 1024;

/**
 * Where one import keeps what it has read and drafted while the rest of the source is read, off the heap: the
 * source's pages (read back twice, see PagedNormalization) and its drafted records (read back once). A temporary
 * file, removed as soon as it is opened (it lives as long as this process holds it open, so a worker that dies
 * leaves nothing behind), encrypted with a key only this object holds (AES-256 in counter mode, so any range reads
 * back alone): a health record never rests on the worker's disk readable.
 */
export class ImportSpill {
  private readonly fd: number;
  private readonly key = randomBytes(32);
  private readonly nonce = randomBytes(8);
  private readonly blocks = createCipheriv("aes-256-ecb", this.key, null).setAutoPadding(false);
  /** Appends are contiguous, so one counter-mode cipher encrypts them all, its stream at the file's end. */
  private readonly appender = createCipheriv("aes-256-ctr", this.key, this.counter(0));
  private size = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private closed = false;

  constructor(directory = os.tmpdir()) {
    const file = path.join(directory, `chartkey-import-${randomUUID()}`);
    this.fd = fs.openSync(file, "wx+", 0o600);
    fs.unlinkSync(file);
  }

  /** Appends a page of resources, kept as given or (with `distinct`) to be listed as fetchPatientResources lists them. */
  appendPage(page: SourcePage, distinct = true): SpilledPage {
    const { offset, length } = this.append(JSON.stringify(page.resources));
    return { rank: page.rank, offset, length, keys: distinct ? page.resources.map(resourceKey) : null };
  }

  /**
   * The pages' resources in the order fetchPatientResources lists them (resourcesInOrder): pages by rank, each
   * resource of the distinct pages once, where it first came, as its last copy. Each call reads them anew.
   */
  *replay(pages: readonly SpilledPage[]): Generator<FhirResource[]> {
    const ordered = [...pages].sort((left, right) => left.rank - right.rank);
    const last = new Map<string, { page: SpilledPage; index: number }>();
    for (const page of ordered) page.keys?.forEach((key, index) => last.set(key, { page, index }));
    const listed = new Set<string>();
    for (const page of ordered) {
      const resources = this.readPage(page);
      if (page.keys === null) {
        yield resources;
        continue;
      }
      const listing: FhirResource[] = [];
      page.keys.forEach((key) => {
        if (listed.has(key)) return;
        listed.add(key);
        const copy = last.get(key)!;
        listing.push(copy.page === page ? resources[copy.index]! : this.readPage(copy.page)[copy.index]!);
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
    const sealed = this.appender.update(text, "utf8");
    const offset = this.size;
    this.pending.push(sealed);
    this.pendingBytes += sealed.length;
    this.size += sealed.length;
    if (this.pendingBytes >= WRITE_BUFFER_BYTES) this.flush();
    return { offset, length: sealed.length };
  }

  private read(offset: number, length: number): string {
    if (this.pendingBytes > 0) this.flush();
    // From the start of the block the range begins in, so the key stream lines up.
    const first = Math.floor(offset / BLOCK);
    const skip = offset - first * BLOCK;
    const data = Buffer.allocUnsafe(skip + length);
    let read = 0;
    while (read < data.length) {
      const bytes = fs.readSync(this.fd, data, read, data.length - read, first * BLOCK + read);
      if (bytes === 0) throw new Error("the import spill ended early");
      read += bytes;
    }
    if (length > SHORT_READ_BYTES) return createCipheriv("aes-256-ctr", this.key, this.counter(first)).update(data).toString("utf8", skip);
    const count = Math.ceil(data.length / BLOCK);
    const counters = Buffer.allocUnsafe(count * BLOCK);
    for (let index = 0; index < count; index++) this.counter(first + index).copy(counters, index * BLOCK);
    const stream = this.blocks.update(counters);
    for (let index = skip; index < data.length; index++) data[index]! ^= stream[index]!;
    return data.toString("utf8", skip);
  }

  private flush(): void {
    const data = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    const at = this.size - this.pendingBytes;
    let written = 0;
    while (written < data.length) written += fs.writeSync(this.fd, data, written, data.length - written, at + written);
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** The counter block of a block number: the spill's nonce, then the number (counter mode, as OpenSSL counts). */
  private counter(block: number): Buffer {
    const counter = Buffer.allocUnsafe(BLOCK);
    this.nonce.copy(counter, 0);
    counter.writeUInt32BE(Math.floor(block / 2 ** 32), 8);
    counter.writeUInt32BE(block >>> 0, 12);
    return counter;
  }
}
