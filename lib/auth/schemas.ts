// Client-safe names of lib/auth (no Node APIs): the dashboard's forms validate with them too.

/**
 * The operations a delegated credential may be granted, named after the MCP tools that mirror them (ARCHITECTURE.md
 * §6): the four reads of one subject. Everything else an application key can do stays with the key.
 */
export const AGENT_OPERATIONS = ["get_health_record", "get_category_records", "get_record_changes", "get_consent_receipt"] as const;
export type AgentOperation = (typeof AGENT_OPERATIONS)[number];
