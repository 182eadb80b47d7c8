import { agentRequestsPerMinute } from "@/lib/config";
import { ApiError, consumeRateLimit, deploymentSetPolicy, type RateLimitPolicy } from "@/lib/http";
import { hashApiKey } from "./api-key-format";
import { authorityHolds, readAuthority, type AuthorityRow } from "./agent-authority";
import { wellFormedAgentToken } from "./agent-token";
import type { AgentOperation } from "./schemas";
import type { KeyAuth } from "./key-auth";

/** A request made with a delegated credential: what it was granted, and the key authority its reads run under. */
export type AgentAuth = {
  kind: "agent";
  credentialId: string;
  purpose: string;
  subjectId: string;
  receiptId: string;
  categories: readonly string[];
  operations: readonly string[];
  /** The parent key, its application's allowlist narrowed to the credential's categories: what reads run as. */
  key: KeyAuth;
};

/** All of one application's credentials in one environment share this limit (deployment-set). */
export const AGENT_POLICY: RateLimitPolicy = deploymentSetPolicy("agent", agentRequestsPerMinute, 60);

/**
 * Resolves a `ck_agent_` token: 401 `invalid_agent_token` unless the credential exists and its authority holds
 * (unexpired and unrevoked, parent key unrevoked, receipt active); the parent application's own refusals (suspended,
 * production not enabled) as for its key; 503 `authority_unavailable` when that cannot be checked now.
 */
export async function authenticateAgent(token: string, now = new Date()): Promise<AgentAuth> {
  if (!wellFormedAgentToken(token)) throw invalidAgentToken();
  const row = await readAuthority("tokenHash", hashApiKey(token), now);
  if (!row || !authorityHolds(row, now)) throw invalidAgentToken();
  if (row.status === "suspended") throw new ApiError("app_suspended", "This application is suspended.");
  if (row.environment === "live" && !row.productionEnabled) {
    throw new ApiError("production_not_enabled", "Production is not enabled for this application; use a sandbox key.");
  }
  return toAgentAuth(row);
}

/**
 * Checks, before a read's answer is sent, that the authority it was admitted under still holds unchanged: 403
 * `authority_changed` if the credential, its parent key, its receipt or the application changed meanwhile (the
 * answer may hold what the patient or the application has since withdrawn; the caller retries and learns why).
 */
export async function confirmAuthority(agent: AgentAuth, now = new Date()): Promise<void> {
  const row = await readAuthority("id", agent.credentialId, now);
  if (row && authorityHolds(row, now) && sameAuthority(toAgentAuth(row), agent)) return;
  throw new ApiError("authority_changed", "The credential's authority changed during the read; retry the request.");
}

/** Counts one request against the application's shared credential limit; returns its RateLimit headers. */
export async function admitAgentRequest(agent: AgentAuth): Promise<Record<string, string>> {
  const { headers } = await consumeRateLimit(AGENT_POLICY, `${agent.key.application.id}:${agent.key.environment}`);
  return headers;
}

/**
 * 403 unless the credential covers the request: the operation granted (`operation_forbidden`), its subject
 * (`subject_mismatch`), its receipt and categories (`credential_scope_exceeded`). Names that are not categories
 * are left to the operation, which answers 400 `invalid_categories`.
 */
export function assertCredentialCovers(
  agent: AgentAuth,
  operation: AgentOperation,
  asked: { subject?: string; receiptId?: string; categories: readonly string[] },
): void {
  if (!agent.operations.includes(operation)) throw new ApiError("operation_forbidden", `This credential was not granted ${operation}.`);
  if (asked.subject !== undefined && asked.subject !== agent.subjectId) {
    throw new ApiError("subject_mismatch", "This credential is bound to another subject.");
  }
  if (asked.receiptId !== undefined && asked.receiptId !== agent.receiptId) {
    throw new ApiError("credential_scope_exceeded", "This credential does not cover that consent receipt.");
  }
  const outside = asked.categories.filter((category) => !agent.categories.includes(category));
  if (outside.length > 0) throw new ApiError("credential_scope_exceeded", `This credential does not cover ${outside.join(", ")}.`);
}

export function invalidAgentToken(): ApiError {
  return new ApiError("invalid_agent_token", "The agent token is unknown, expired, revoked, issued for another API, or its authority ended.");
}

function toAgentAuth(row: AuthorityRow): AgentAuth {
  return {
    kind: "agent",
    credentialId: row.id,
    purpose: row.purpose,
    subjectId: row.subjectId,
    receiptId: row.receiptId,
    categories: row.categories,
    operations: row.operations,
    key: {
      kind: "key",
      apiKeyId: row.apiKeyId,
      environment: row.environment,
      conformanceRunId: row.conformanceRunId,
      application: {
        id: row.applicationId,
        name: row.name,
        status: row.status,
        productionEnabled: row.productionEnabled,
        categoryAllowlist: row.categoryAllowlist.filter((category) => row.categories.includes(category)),
        syncMode: row.syncMode,
      },
    },
  };
}

function sameAuthority(now: AgentAuth, before: AgentAuth): boolean {
  const { application: a } = now.key;
  const { application: b } = before.key;
  return a.status === b.status && a.productionEnabled === b.productionEnabled && a.categoryAllowlist.join() === b.categoryAllowlist.join();
}
