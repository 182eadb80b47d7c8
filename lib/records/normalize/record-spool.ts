/**
 * Where a paged normalization keeps text it reads back only later: the projections of the resources other resources
 * may reference, until the whole source says which are referenced (source-index.ts), and each drafted record until
 * the whole source decides its id and order (paged-normalization.ts). Text is appended and read back by the number
 * `append` returned. In memory for a test; an import keeps it in a file (lib/imports/import-spill.ts).
 */
export interface RecordSpool {
  /** Returns the text's number. */
  append(text: string): number;
  read(index: number): string;
  /** Several at once, in the order asked: a file reads them in the order they lie, a few neighbours per read. */
  readMany(indices: readonly number[]): string[];
}

export function memorySpool(): RecordSpool {
  const texts: string[] = [];
  return { append: (text) => texts.push(text) - 1, read: (index) => texts[index]!, readMany: (indices) => indices.map((index) => texts[index]!) };
}
