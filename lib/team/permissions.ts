import { ForbiddenError } from "./errors";

export const ROLES = ["owner", "member"] as const;
export type ApplicationRole = (typeof ROLES)[number];

/**
 * What a role may do on an application (docs/dashboard.md). Members build with the application; only owners
 * delete it, ask for production, hold live keys, see or rotate the signing secret and manage the team.
 */
export const PERMISSIONS = {
  /** Read the application, its settings, keys list, usage, delivery log and sandbox. */
  "application.read": ["owner", "member"],
  /** Read the application's audit trail (the Security page) and export it. */
  "audit.read": ["owner", "member"],
  /** Rename; category allowlist; sync mode; redirect URLs; webhook URL; test events and re-sends. */
  "application.manage": ["owner", "member"],
  "application.delete": ["owner"],
  /** Ask for production (an operator approves or refuses; lib/operators). */
  "production.enable": ["owner"],
  /** Create and revoke sandbox keys. */
  "keys.sandbox": ["owner", "member"],
  /** Create and revoke live keys. */
  "keys.live": ["owner"],
  /** Same as `keys.live`: replacing live credentials counts as rotating secrets. */
  "keys.rotate": ["owner"],
  "webhooks.reveal_secret": ["owner"],
  "webhooks.rotate_secret": ["owner"],
  /** Invite, revoke invitations, change roles, remove members. */
  "team.manage": ["owner"],
  /** Connect sessions, simulations, sandbox events and the synthetic subjects' records. */
  "sandbox.use": ["owner", "member"],
} as const satisfies Record<string, readonly ApplicationRole[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: ApplicationRole, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly ApplicationRole[]).includes(role);
}

/** The key permission for creating or revoking a key of `environment`. */
export function keyPermission(environment: "sandbox" | "live"): Permission {
  return environment === "live" ? "keys.live" : "keys.sandbox";
}

/** Throws ForbiddenError unless the access's role has the permission. */
export function requirePermission(access: { role: ApplicationRole }, permission: Permission): void {
  if (!can(access.role, permission)) throw new ForbiddenError(permission);
}
