import pino from "pino";

/**
 * The process logger: one JSON line per event. Never pass keys, tokens, secrets or record contents; the redact
 * list is a second line of defence for header objects that reach a log by mistake.
 */
export const log = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "chartkey" },
  redact: {
    paths: ["authorization", "headers.authorization", "*.authorization", "apiKey", "token", "secret", "password"],
    censor: "[redacted]",
  },
});
