import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FhirResource } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { resourcesInOrder } from "@/lib/sources";
import { ImportSpill } from "./import-spill";

const resource = (resourceType: string, id: string | undefined, note = ""): FhirResource => ({ resourceType, ...(id === undefined ? {} : { id }), note }) as unknown as FhirResource;

describe("ImportSpill", () => {
  it("replays pages in the order fetchPatientResources lists them: by rank, each resource once, where it first came, as its last copy", () => {
    const spill = new ImportSpill();
    const pages = [
      { rank: 5, resources: [resource("Observation", "b", "first"), resource("Observation", "c")] },
      { rank: 0, resources: [resource("Patient", "p")] },
      { rank: 3, resources: [resource("Condition", "a"), resource("Observation", "b", "earlier"), resource("Condition", undefined, "x")] },
      { rank: 7, resources: [resource("Observation", "b", "last"), resource("Condition", undefined, "y")] },
    ];
    const spilled = pages.flatMap((page) => spill.appendPage(page));
    for (let pass = 0; pass < 2; pass++) expect([...spill.replay(spilled)].flat()).toEqual(resourcesInOrder(pages));
    // Settled, only the pages with a copy of Observation/b keep their keys, and the replay is the same.
    const settled = ImportSpill.settled(spilled);
    expect(settled.map((page) => [page.rank, page.keys !== null])).toEqual([[5, true], [0, false], [3, true], [7, true]]);
    expect([...spill.replay(settled)].flat()).toEqual(resourcesInOrder(pages));
    spill.close();
  });

  it("keeps a page taken as given (a fetcher's returned list) with its repeats, after the ranked pages", () => {
    const spill = new ImportSpill();
    const given = [resource("Immunization", "a"), resource("Immunization", "a")];
    const spilled = [...spill.appendPage({ rank: Number.MAX_SAFE_INTEGER, resources: given }, false), ...spill.appendPage({ rank: 1, resources: [resource("Patient", "p")] })];
    expect([...spill.replay(spilled)]).toEqual([[resource("Patient", "p")], given]);
    spill.close();
  });

  it("reads back each spooled record by number, whatever the order, across many write buffers", () => {
    const spill = new ImportSpill();
    const spool = spill.recordSpool();
    const texts = Array.from({ length: 3000 }, (_, index) => `{"n":${index},"text":"${"é✓x".repeat(index % 700)}"}`);
    texts.forEach((text, index) => expect(spool.append(text)).toBe(index));
    const order = texts.map((_, index) => (index * 7919) % texts.length);
    for (const index of order) expect(spool.read(index)).toBe(texts[index]);
    for (let index = texts.length - 1; index >= 0; index--) expect(spool.read(index)).toBe(texts[index]);
    // Read, then appended after (still in the write buffer): read from the file all the same.
    spool.append("tail");
    expect(spool.read(texts.length)).toBe("tail");
    expect(spool.read(texts.length - 1)).toBe(texts.at(-1));
    spill.close();
  });

  it("reads many records at once in the order asked, neighbours merged into one read and far ones apart", () => {
    const spill = new ImportSpill();
    const spool = spill.recordSpool();
    // Records from a few bytes to over 100 kB (beyond the gap two neighbours are merged across), multibyte text.
    const texts = Array.from({ length: 2000 }, (_, index) => `{"n":${index},"text":"${"é✓x".repeat(index % 97 === 0 ? 20_000 : index % 300)}"}`);
    for (const text of texts) spool.append(text);
    const asked = [...texts.keys()].map((index) => (index * 7919) % texts.length);
    for (let start = 0; start < asked.length; start += 500) {
      const batch = asked.slice(start, start + 500);
      expect(spool.readMany(batch)).toEqual(batch.map((index) => texts[index]));
    }
    expect(spool.readMany([5, 5, 1999, 0])).toEqual([texts[5], texts[5], texts[1999], texts[0]]);
    expect(spool.readMany([])).toEqual([]);
    spill.close();
  });

  it("leaves no file behind: the file is unlinked once opened, and only this process's user could have opened it", () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "spill-test-"));
    const spill = new ImportSpill(directory);
    expect(fs.readdirSync(directory)).toEqual([]);
    spill.recordSpool().append("x".repeat(2 << 20));
    // The spill's own descriptor, through /proc: the file it names is deleted, and was created for its owner only.
    const fd = fs.readdirSync("/proc/self/fd").find((candidate) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${candidate}`).startsWith(path.join(directory, "chartkey-import-"));
      } catch {
        return false;
      }
    });
    expect(fs.readlinkSync(`/proc/self/fd/${fd}`)).toMatch(/ \(deleted\)$/);
    expect(fs.fstatSync(Number(fd)).mode & 0o777).toBe(0o600);
    expect(fs.fstatSync(Number(fd)).size).toBeGreaterThanOrEqual(2 << 20);
    spill.close();
    fs.rmdirSync(directory);
  });
});
