import { randomBytes } from "node:crypto";
import { hashApiKey } from "./api-key-format";

/** A delegated credential's token: `ck_agent_` + 32 random bytes in base64url (ARCHITECTURE.md §6). */
const AGENT_TOKEN_PREFIX = "ck_agent_";
const AGENT_TOKEN_PATTERN = /^ck_agent_[A-Za-z0-9_-]{43}$/;

export function generateAgentToken(): { token: string; tokenHash: string } {
  const token = AGENT_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  return { token, tokenHash: hashApiKey(token) };
}

/**
 * Whether a bearer token is meant as a delegated credential rather than an API key: ours (`ck_agent_`, well-formed
 * or not), or an OAuth access token issued for an audience (an MCP client's, say), which no API key is. Either is
 * then answered as an agent token: 401 `invalid_agent_token` unless it is one of ours and its authority holds.
 */
export function isAgentToken(token: string): boolean {
  return token.startsWith(AGENT_TOKEN_PREFIX) || audienceOf(token) !== undefined;
}

/** The `aud` claim of a JWT access token, if the bearer is one (read, never trusted: it only names the refusal). */
function audienceOf(token: string): unknown {
  const [, payload, signature, ...rest] = token.split(".");
  if (!payload || signature === undefined || rest.length > 0) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return claims !== null && typeof claims === "object" ? (claims as { aud?: unknown }).aud : undefined;
  } catch {
    return undefined;
  }
}

export function wellFormedAgentToken(token: string): boolean {
  return AGENT_TOKEN_PATTERN.test(token);
}
