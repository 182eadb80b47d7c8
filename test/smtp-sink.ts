import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";

export type ReceivedEmail = { to: string[]; subject: string; text: string; html: string; from: string; parsed: ParsedMail };

/**
 * A real SMTP server on a free local port (smtp-server), for tests of the platform's email: every message it accepts
 * is parsed (mailparser) and kept. `url` is what CHARTKEY_SMTP_URL should be; `next(to)` waits for a message to an
 * address and takes it from `received`. No TLS and no authentication: it listens on the loopback address only.
 */
export async function startSmtpSink(): Promise<{ url: string; received: ReceivedEmail[]; next: (to: string, timeoutMs?: number) => Promise<ReceivedEmail>; close: () => Promise<void> }> {
  const received: ReceivedEmail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).flatMap((address) => address.value.map((one) => one.address ?? ""));
          received.push({ to, subject: parsed.subject ?? "", text: parsed.text ?? "", html: typeof parsed.html === "string" ? parsed.html : "", from: parsed.from?.text ?? "", parsed });
          waiters.splice(0).forEach((wake) => wake());
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  const next = async (to: string, timeoutMs = 10_000): Promise<ReceivedEmail> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = received.findIndex((message) => message.to.includes(to.toLowerCase()));
      if (index >= 0) {
        const [message] = received.splice(index, 1);
        return message!;
      }
      if (Date.now() > deadline) throw new Error(`no email to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return { url: `smtp://127.0.0.1:${port}`, received, next, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;

/** One SMTP sink for a test file: started before its tests, closed after them; read `url`, `next` and `received` in a test. */
export function smtpSinkForFile(): Pick<SmtpSink, "url" | "received" | "next"> {
  let sink: SmtpSink | undefined;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink?.close());
  const started = () => {
    if (!sink) throw new Error("the SMTP sink is started before the file's tests (smtpSinkForFile at the file's top level)");
    return sink;
  };
  return {
    get url() {
      return started().url;
    },
    get received() {
      return started().received;
    },
    next: (to, timeoutMs) => started().next(to, timeoutMs),
  };
}
