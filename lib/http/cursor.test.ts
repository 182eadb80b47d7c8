import { describe, expect, it } from "vitest";
import { ApiError } from "./api-error";
import { decodeCursor, encodeCursor, type CursorBinding } from "./cursor";

const binding: CursorBinding = { endpoint: "records", applicationId: "app_1", environment: "sandbox", subject: "u_1", category: "labs" };

function expectInvalid(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("invalid_cursor");
    expect((error as ApiError).status).toBe(400);
    return;
  }
  throw new Error("expected invalid_cursor");
}

describe("cursors", () => {
  it("round-trip their position for the same binding", () => {
    const cursor = encodeCursor(binding, { after: "rec_9", n: 3 });
    expect(decodeCursor(cursor, binding)).toEqual({ after: "rec_9", n: 3 });
  });

  it("refuse another endpoint, application, environment, subject or category", () => {
    const cursor = encodeCursor(binding, { after: "rec_9" });
    expectInvalid(() => decodeCursor(cursor, { ...binding, endpoint: "changes" }));
    expectInvalid(() => decodeCursor(cursor, { ...binding, applicationId: "app_2" }));
    expectInvalid(() => decodeCursor(cursor, { ...binding, environment: "live" }));
    expectInvalid(() => decodeCursor(cursor, { ...binding, subject: "u_2" }));
    expectInvalid(() => decodeCursor(cursor, { ...binding, category: "vitals" }));
  });

  it("refuse edited cursors: changed position, re-signed body, or truncated signature", () => {
    const cursor = encodeCursor(binding, { after: "rec_9" });
    const [body, signature] = cursor.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ b: binding, p: { after: "rec_0" } })).toString("base64url");
    expectInvalid(() => decodeCursor(`${forged}.${signature}`, binding));
    expectInvalid(() => decodeCursor(`${body}.${signature.slice(0, -2)}`, binding));
    const flipped = signature[0] === "A" ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expectInvalid(() => decodeCursor(`${body}.${flipped}`, binding));
  });

  it("refuse garbage", () => {
    for (const garbage of ["", "abc", "a.b.c", "...", "%%%", "eyJ9.", "null"]) expectInvalid(() => decodeCursor(garbage, binding));
  });
});
