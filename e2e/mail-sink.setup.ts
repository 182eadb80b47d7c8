import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * Playwright's global setup: a real SMTP server (smtp-server) on E2E_SMTP_PORT, the CHARTKEY_SMTP_URL of the
 * browser tests' platform (playwright.config.ts). Each message it accepts is parsed (mailparser) and written as JSON
 * to E2E_MAIL_DIR, where the tests' workers read it (e2e/dashboard-helpers.ts readEmail). Returns the teardown.
 */
export default async function startMailSink(): Promise<() => Promise<void>> {
  const dir = process.env.E2E_MAIL_DIR!;
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).flatMap((address) => address.value.map((one) => (one.address ?? "").toLowerCase()));
          const message = { to, subject: parsed.subject ?? "", text: parsed.text ?? "", html: typeof parsed.html === "string" ? parsed.html : "", receivedAt: Date.now() };
          writeFileSync(path.join(dir, `${Date.now()}-${++count}.json`), JSON.stringify(message));
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(process.env.E2E_SMTP_PORT), "127.0.0.1", resolve);
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
