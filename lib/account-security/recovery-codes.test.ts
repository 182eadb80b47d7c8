import { describe, expect, it } from "vitest";
import { newRecoveryCode, normalizeRecoveryCode, recoveryCodeHash } from "./recovery-codes";

describe("recovery codes", () => {
  it("are ten characters of an unambiguous alphabet, grouped by five", () => {
    const codes = new Set(Array.from({ length: 200 }, newRecoveryCode));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
  });

  it("hash the same whatever the case, spaces and dashes; a different code hashes differently", () => {
    expect(normalizeRecoveryCode(" abcde-fghjk ")).toBe("ABCDEFGHJK");
    expect(recoveryCodeHash("abcde fghjk")).toBe(recoveryCodeHash("ABCDE-FGHJK"));
    expect(recoveryCodeHash("ABCDE-FGHJM")).not.toBe(recoveryCodeHash("ABCDE-FGHJK"));
    expect(recoveryCodeHash("ABCDE-FGHJK")).toMatch(/^[0-9a-f]{64}$/);
  });
});
