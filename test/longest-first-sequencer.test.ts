import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KNOWN_SECONDS, longestFirst } from "./longest-first-sequencer";

type File = { name: string; project: string; seconds: number };
const order = (files: File[]) => longestFirst(files, (file) => file.project, (file) => file.seconds).map((file) => file.name);

describe("longestFirst", () => {
  it("puts a project's longest files first, whatever order they came in", () => {
    expect(order([
      { name: "quick", project: "integration", seconds: 1 },
      { name: "matrix", project: "integration", seconds: 250 },
      { name: "kill", project: "integration", seconds: 65 },
    ])).toEqual(["matrix", "kill", "quick"]);
  });

  it("keeps the projects in the order they came, and the given order among equal times", () => {
    expect(order([
      { name: "a", project: "integration", seconds: 0 },
      { name: "unit-long", project: "unit", seconds: 30 },
      { name: "b", project: "integration", seconds: 0 },
      { name: "c", project: "integration", seconds: 5 },
    ])).toEqual(["c", "a", "b", "unit-long"]);
  });
});

describe("KNOWN_SECONDS", () => {
  it("names only files that exist (a renamed file would silently lose its place)", () => {
    const root = path.resolve(import.meta.dirname, "..");
    expect(Object.keys(KNOWN_SECONDS).filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  });
});
