import { describe, expect, it } from "vitest";
import type { KeyAuth } from "@/lib/auth";
import { assertCategoryReadable, readAuthorization, readScope } from "./authorize-read";
import { activeReceiptSelect, receiptParams, receiptValues } from "./receipt-sql";

// Consent read authorization without a database: what an active receipt lets a key read (the receipt's categories
// the application's allowlist also holds), the refusals, and the predicates the active receipt is selected by.

function key(categoryAllowlist: string[]): KeyAuth {
  return {
    kind: "key",
    apiKeyId: "key_1",
    environment: "sandbox",
    conformanceRunId: null,
    application: { id: "app_1", name: "App", status: "sandbox", productionEnabled: false, categoryAllowlist, syncMode: "one_time" },
  };
}

const receipt = { id: "rcpt_1", categories: ["labs", "medications", "conditions"], expiresAt: new Date("2031-01-01T00:00:00Z"), grantedAt: new Date("2026-01-01T00:00:00Z") };

function refusal(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe("readAuthorization", () => {
  it("gives the receipt's categories that the application's allowlist also holds, and no others", () => {
    const allowlisted = key(["medications", "labs", "vitals"]);
    const authorization = readAuthorization(allowlisted, readScope(allowlisted, "u_1"), receipt);
    expect([...authorization.categories].sort()).toEqual(["labs", "medications"]);
    expect([...authorization.receipt.categories].sort()).toEqual(["conditions", "labs", "medications"]);
    expect(authorization.scope).toEqual({ applicationId: "app_1", environment: "sandbox", subjectId: "u_1" });
  });

  it("gives nothing when the allowlist and the receipt do not meet, and 404 without an active receipt", () => {
    const narrow = key(["vitals"]);
    expect(readAuthorization(narrow, readScope(narrow, "u_1"), receipt).categories).toEqual([]);
    expect(refusal(() => readAuthorization(narrow, readScope(narrow, "u_1"), undefined))).toBe("not_found");
  });

  it("drops names in the receipt that are not categories", () => {
    const all = key(["labs", "nonsense"]);
    expect(readAuthorization(all, readScope(all, "u_1"), { ...receipt, categories: ["labs", "nonsense"] }).categories).toEqual(["labs"]);
  });
});

describe("assertCategoryReadable", () => {
  const allowlisted = key(["medications"]);
  const authorization = readAuthorization(allowlisted, readScope(allowlisted, "u_1"), receipt);

  it("lets a category both the receipt and the allowlist hold through", () => {
    expect(refusal(() => assertCategoryReadable(authorization, "medications"))).toBeNull();
  });

  it("refuses a category the receipt holds but the allowlist does not, and one the receipt does not hold (app_scope_exceeded)", () => {
    expect(refusal(() => assertCategoryReadable(authorization, "labs"))).toBe("app_scope_exceeded");
    expect(refusal(() => assertCategoryReadable(authorization, "vitals"))).toBe("app_scope_exceeded");
  });
});

describe("the active receipt's predicates", () => {
  const text = activeReceiptSelect(receiptParams(1)).replace(/\s+/g, " ");

  it("selects by subject, application and environment, active status, and expiry after now", () => {
    expect(text).toContain(`"subjectId" = $1`);
    expect(text).toContain(`"applicationId" = $2`);
    expect(text).toContain(`environment = $3::"Environment"`);
    expect(text).toContain(`status = 'active'`);
    expect(text).toContain(`"expiresAt" > $4::timestamp(3)`);
    // Each predicate joined by AND: none may be OR-ed away.
    expect(text).not.toMatch(/\bOR\b/i);
  });

  it("binds its values in the order it numbers them, from any first placeholder", () => {
    const now = new Date("2027-05-01T12:00:00.000Z");
    expect(receiptValues({ subjectId: "u_1", applicationId: "app_1", environment: "live" }, now)).toEqual(["u_1", "app_1", "live", "2027-05-01T12:00:00.000Z"]);
    expect(activeReceiptSelect(receiptParams(6)).replace(/\s+/g, " ")).toContain(`"expiresAt" > $9::timestamp(3)`);
  });
});
