/** Why a dashboard team or application action was refused; the UI maps each code to a message. */
export type TeamErrorCode =
  | "forbidden"
  | "not_found"
  | "invitation_invalid"
  | "invitation_expired"
  | "invitation_revoked"
  | "invitation_used"
  | "invitation_email_mismatch"
  | "already_member"
  | "last_owner"
  | "invalid_input";

/** A refused dashboard action. Callers answer `not_found` as 404 (never 403 for a missing membership). */
export class TeamError extends Error {
  constructor(
    readonly code: TeamErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "TeamError";
  }
}

/** The caller is a member but their role lacks the permission. */
export class ForbiddenError extends TeamError {
  constructor(readonly permission: string) {
    super("forbidden", `Your role on this application does not allow ${permission}.`);
    this.name = "ForbiddenError";
  }
}

export class NotFoundError extends TeamError {
  constructor(what: string) {
    super("not_found", `${what} was not found.`);
    this.name = "NotFoundError";
  }
}
