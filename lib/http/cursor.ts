import { createHmac, timingSafeEqual } from "node:crypto";
import { acceptedKeys, derivedKey } from "@/lib/config";
import { ApiError } from "./api-error";

/** What a cursor is valid for: the endpoint family plus, where relevant, the subject and category. */
export type CursorBinding = { endpoint: string; applicationId: string; environment: string; subject?: string; category?: string };

type CursorPayload<T> = { b: CursorBinding; p: T };

/**
 * Opaque, signed cursors. The position is sealed with the binding under an HMAC, so a cursor that was edited,
 * comes from another endpoint, application, subject or category, or is not a cursor at all is refused with
 * 400 `invalid_cursor` instead of silently reading the wrong page.
 */
export function encodeCursor<T>(binding: CursorBinding, position: T): string {
  const body = Buffer.from(JSON.stringify({ b: binding, p: position } satisfies CursorPayload<T>)).toString("base64url");
  return `${body}.${sign(derivedKey("cursor-signing"), body)}`;
}

export function decodeCursor<T>(cursor: string, binding: CursorBinding): T {
  const [body, signature, extra] = cursor.split(".");
  if (!body || !signature || extra !== undefined) throw invalid();
  // Signed under the current secret, or the previous one while a rotation is under way (CHARTKEY_SECRET_PREVIOUS).
  const given = Buffer.from(signature);
  const valid = acceptedKeys("cursor-signing").some((key) => {
    const expected = Buffer.from(sign(key, body));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!valid) throw invalid();
  let payload: CursorPayload<T>;
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as CursorPayload<T>;
  } catch {
    throw invalid();
  }
  if (!sameBinding(payload.b, binding)) throw invalid();
  return payload.p;
}

function sameBinding(a: CursorBinding, b: CursorBinding): boolean {
  return (
    a.endpoint === b.endpoint &&
    a.applicationId === b.applicationId &&
    a.environment === b.environment &&
    (a.subject ?? null) === (b.subject ?? null) &&
    (a.category ?? null) === (b.category ?? null)
  );
}

function sign(key: Buffer, body: string): string {
  return createHmac("sha256", key).update(body).digest("base64url");
}

function invalid(): ApiError {
  return new ApiError(
    "invalid_cursor",
    "The cursor is not valid for this endpoint, subject and category. Pass each nextCursor back unchanged.",
  );
}
