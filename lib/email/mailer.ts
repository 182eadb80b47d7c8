import nodemailer, { type Transporter } from "nodemailer";
import { emailFrom, smtpUrl } from "@/lib/config";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { processState } from "@/lib/process-state";
import type { RenderedEmail } from "./templates";

export type OutgoingEmail = RenderedEmail & { to: string; kind: string; developerId?: string | null };
export type Delivery = { via: "smtp"; messageId: string } | { via: "outbox"; id: string };

// One SMTP transport per process and URL (a pool of connections nodemailer keeps open between messages).
const transports = processState("email.transports", () => new Map<string, Transporter>());

function transportFor(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(url, transport);
  }
  return transport;
}

/** Only a path's first characters: a link's token must not reach the log in production. */
export function redactLinks(text: string): string {
  return text.replace(/(https?:\/\/[^\s/]+\/[^\s]*?\/)([A-Za-z0-9_-]{6})[A-Za-z0-9_-]{10,}/g, "$1$2…");
}

const showLinksInLog = () => process.env.NODE_ENV !== "production";

/**
 * Sends one message: over SMTP when `CHARTKEY_SMTP_URL` is set, else into the outbox table (the dashboard's Outbox
 * page) with a line in the log. The log line names the kind, recipient and subject; in development it also carries
 * the text (its link followed from the terminal), in production never a link's token. Throws when the message
 * cannot be sent or stored; callers that must not fail (notices) catch it.
 */
export async function deliverEmail(message: OutgoingEmail): Promise<Delivery> {
  const url = smtpUrl();
  if (url) {
    const info = await transportFor(url).sendMail({ from: emailFrom(), to: message.to, subject: message.subject, text: message.text, html: message.html });
    log.info({ event: "email.sent", kind: message.kind, to: message.to, messageId: info.messageId }, "email sent over SMTP");
    return { via: "smtp", messageId: info.messageId };
  }
  const id = newId("mail_");
  await db().outboxEmail.create({ data: { id, to: message.to, subject: message.subject, text: message.text, html: message.html, kind: message.kind, developerId: message.developerId ?? null } });
  log.info(
    { event: "email.outbox", kind: message.kind, to: message.to, subject: message.subject, outboxId: id, body: showLinksInLog() ? message.text : redactLinks(message.text) },
    "email kept in the outbox (no CHARTKEY_SMTP_URL)",
  );
  return { via: "outbox", id };
}

/** Like deliverEmail, but a failure is logged (without the body) and swallowed: for messages nothing waits on. */
export async function deliverEmailQuietly(message: OutgoingEmail): Promise<Delivery | null> {
  try {
    return await deliverEmail(message);
  } catch (error) {
    log.error({ event: "email.failed", kind: message.kind, to: message.to, err: (error as Error).name, message: (error as Error).message }, "email could not be sent");
    return null;
  }
}
