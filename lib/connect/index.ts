export { createSession } from "./create-session";
export { linkToken, linkTokenHash } from "./link-tokens";
export { cancelConnectSession, createConnectSession, getConnectSession } from "./operations";
export { connectUrl, effectiveSessionStatus, loadSession, presentSession, type LoadedSession } from "./present-session";
export { cancelSession, readSession } from "./read-session";
export * from "./schemas";
export { expireConnectSessions } from "./expire-cycle";
