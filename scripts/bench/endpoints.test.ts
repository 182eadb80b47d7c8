import { describe, expect, it } from "vitest";
import { endpointPaths, floorPaths, shuffled } from "./endpoints";

describe("bench endpoints", () => {
  it("rotate through every subject (and every saved feed cursor) in a fixed shuffled order", () => {
    const subjects = Array.from({ length: 50 }, (_, i) => `u_${i}`);
    const feeds = [{ subjectId: "u_1", cursor: "abc.d-f_" }];
    const [app, category, feed, snapshot] = endpointPaths({ subjects, feeds }, ["app", "category", "feed", "snapshot"]);
    expect(app!.paths).toEqual(["/api/v1/app"]);
    expect(category!.paths).toHaveLength(50);
    expect(new Set(category!.paths).size).toBe(50);
    expect(category!.paths).not.toEqual(subjects.map((subject) => `/api/v1/users/${subject}/records/labs?limit=50`));
    expect(category!.paths).toEqual(endpointPaths({ subjects, feeds }, ["category"])[0]!.paths);
    expect(feed!.paths).toEqual(["/api/v1/users/u_1/records/labs/changes?cursor=abc.d-f_"]);
    expect(snapshot!.paths[0]).toMatch(/^\/api\/v1\/users\/u_\d+\/records$/);
  });

  it("read each floor over the same subjects, in the same order, as the read it is the floor of", () => {
    const subjects = Array.from({ length: 20 }, (_, i) => `u_${i}`);
    const [category, snapshot] = endpointPaths({ subjects, feeds: [] }, ["category", "snapshot"]);
    const subjectOf = (path: string) => path.split("/")[path.startsWith("/floor/") ? 3 : 4];
    const categoryFloor = floorPaths({ subjects }, "category-floor");
    const snapshotFloor = floorPaths({ subjects }, "snapshot-floor");
    expect(categoryFloor.paths.map(subjectOf)).toEqual(category!.paths.map(subjectOf));
    expect(snapshotFloor.paths.map(subjectOf)).toEqual(snapshot!.paths.map(subjectOf));
    expect(categoryFloor.paths[0]).toBe(`/floor/users/${subjectOf(category!.paths[0]!)}/records/labs?limit=50`);
    expect(snapshotFloor.paths[0]).toBe(`/floor/users/${subjectOf(snapshot!.paths[0]!)}/records`);
  });

  it("shuffles deterministically without losing items", () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    expect(shuffled(items)).toEqual(shuffled(items));
    expect([...shuffled(items)].sort((a, b) => a - b)).toEqual(items);
    expect(shuffled(items, 1)).not.toEqual(shuffled(items, 2));
  });
});
