import { describe, expect, it } from "vitest";
import { DASHBOARD_PATH, safeReturnPath } from "./session-config";

describe("safeReturnPath", () => {
  it("keeps a path on this site", () => {
    expect(safeReturnPath("/dashboard/app_1/keys?x=1")).toBe("/dashboard/app_1/keys?x=1");
    expect(safeReturnPath("/invitations/abc")).toBe("/invitations/abc");
  });

  it("refuses anything that could leave the site", () => {
    for (const candidate of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "", null, 42]) {
      expect(safeReturnPath(candidate)).toBe(DASHBOARD_PATH);
    }
  });
});
