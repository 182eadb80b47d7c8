import { ApiError } from "@/lib/http";
import type { TefcaState } from "./schemas";

/**
 * The state a session is in at `now`: the stored one, except that a session not revoked reads `expired` from its
 * expiry on (15 minutes after creation). Moves (docs/tefca.md): started → discovered (discover, again from
 * discovered) → retrieved (retrieve, once) → revoked (revoke, from any state but expired).
 */
export function effectiveState(session: { state: string; expiresAt: Date }, now: Date): TefcaState {
  if (session.state !== "revoked" && session.expiresAt <= now) return "expired";
  return session.state as TefcaState;
}

/** 409 `invalid_state` unless the session is in one of `allowed`. */
export function requireState(state: TefcaState, allowed: readonly TefcaState[], action: string): void {
  if (allowed.includes(state)) return;
  const why =
    state === "retrieved" && action !== "export"
      ? "its selection is complete; start a new session to change it"
      : state === "expired"
        ? "it expired 15 minutes after creation"
        : `it is ${state}`;
  throw new ApiError("invalid_state", `Cannot ${action} this session: ${why}. Allowed from: ${allowed.join(", ")}.`);
}

/** 403 `app_scope_changed` when the application's allowlist no longer holds every category of the session. */
export function requireScope(categories: readonly string[], allowlist: readonly string[]): void {
  const dropped = categories.filter((category) => !allowlist.includes(category));
  if (dropped.length === 0) return;
  throw new ApiError("app_scope_changed", `The application's allowlist no longer includes this session's ${dropped.join(", ")}; start a new session.`);
}
