import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { listOutbox, outboxInUse } from "@/lib/email";
import { canReadOutbox, requireEnrolment } from "@/lib/dashboard";

export const metadata: Metadata = { title: "Outbox", referrer: "no-referrer" };

const dateTime = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export default async function OutboxPage() {
  // The outbox holds reset links: an operator reads it only with a second factor enrolled, as the operator pages.
  const developer = await requireEnrolment("/dashboard/outbox");
  if (!(await canReadOutbox(developer))) notFound();
  const inUse = outboxInUse();
  const messages = await listOutbox({ limit: 50 });
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Outbox</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          {inUse
            ? "This deployment has no mail server (CHARTKEY_SMTP_URL is not set), so the email it would send is kept here, newest first, and summarized in the log. Only operators and the development account see this page. Set CHARTKEY_SMTP_URL before real people use the dashboard: these messages hold password reset links."
            : "This deployment sends email over SMTP (CHARTKEY_SMTP_URL), so new messages are not kept here. Older messages, from before the mail server was set, are listed below."}
        </p>
      </div>
      {messages.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">No email kept yet.</p>
      ) : (
        <ol className="space-y-4" aria-label="Kept email, newest first">
          {messages.map((message) => (
            <li key={message.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <article aria-labelledby={`${message.id}-subject`}>
                <h2 id={`${message.id}-subject`} className="text-base font-semibold break-words text-slate-900">
                  {message.subject}
                </h2>
                <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-600">
                  <dt className="font-medium text-slate-700">To</dt>
                  <dd className="break-all">{message.to}</dd>
                  <dt className="font-medium text-slate-700">Kind</dt>
                  <dd>{message.kind}</dd>
                  <dt className="font-medium text-slate-700">Kept</dt>
                  <dd>
                    <time dateTime={message.createdAt.toISOString()}>{dateTime.format(message.createdAt)} UTC</time>
                  </dd>
                </dl>
                <details className="mt-3">
                  <summary className="cursor-pointer text-sm font-medium text-teal-800">Show the message</summary>
                  <pre className="mt-2 max-w-full overflow-x-auto rounded bg-slate-50 p-3 text-xs break-words whitespace-pre-wrap text-slate-800">{message.text}</pre>
                </details>
              </article>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
