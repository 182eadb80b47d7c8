export * from "./mailer";
export * from "./outbox";
export * from "./recipients";
export * from "./security-notice";
export * from "./templates";
