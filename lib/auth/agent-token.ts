import { randomBytes } from "node:crypto";
import { hashApiKey } from "./api-key-format";

/** A delegated credential's token: `ck_agent_` + 32 random bytes in base64url (ARCHITECTURE.md §6). */
export const AGENT_TOKEN_PREFIX = "ck_agent_";
const AGENT_TOKEN_PATTERN = /^ck_agent_[A-Za-z0-9_-]{43}$/;

export function generateAgentToken(): { token: string; tokenHash: string } {
  const token = AGENT_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  return { token, tokenHash: hashApiKey(token) };
}

/** Whether a bearer token is meant as a delegated credential (well-formed or not), rather than an API key. */
export function isAgentToken(token: string): boolean {
  return token.startsWith(AGENT_TOKEN_PREFIX);
}

export function wellFormedAgentToken(token: string): boolean {
  return AGENT_TOKEN_PATTERN.test(token);
}
