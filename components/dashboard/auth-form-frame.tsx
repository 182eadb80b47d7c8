import Link from "next/link";
import type { FormEventHandler, ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/field";

/** A link in the sign-in pages' text (teal, underlined). */
export const authLinkClass = "font-medium text-teal-800 underline underline-offset-2";

/** A sign-in page's good news (a link was sent, an address confirmed, a password changed), announced as a status. */
export function AuthNotice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded border border-teal-200 bg-teal-50 p-3 text-sm text-teal-900">
      {children}
    </p>
  );
}

/** What a finished form leaves in its place: its notice and the one link onwards. */
export function AuthDone({ children, href, linkLabel }: { children: ReactNode; href: string; linkLabel: string }) {
  return (
    <div className="space-y-4">
      <AuthNotice>{children}</AuthNotice>
      <p className="text-center text-sm text-slate-600">
        <Link className={authLinkClass} href={href}>
          {linkLabel}
        </Link>
      </p>
    </div>
  );
}

/**
 * The frame of the sign-in pages' forms (sign in, sign up, forgot and reset password, confirm email): posted by
 * script with the browser's own validation off (the zod schema's messages show beside each field), the refusal on
 * top as an alert, one full-width submit button that says it is working, and an optional line below it with a link
 * ("New to Chartkey? Create an account").
 */
export function AuthFormFrame({
  onSubmit,
  refusal,
  pending,
  label,
  pendingLabel,
  notice,
  footer,
  children,
}: {
  onSubmit: FormEventHandler<HTMLFormElement>;
  refusal: string | null;
  pending: boolean;
  label: string;
  pendingLabel: string;
  /** Above the refusal (e.g. "your password is changed"). */
  notice?: ReactNode;
  footer?: { prompt: string; href: string; link: string };
  children?: ReactNode;
}) {
  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
      {notice}
      <FormAlert message={refusal} />
      {children}
      <Button type="submit" className="w-full" pending={pending}>
        {pending ? pendingLabel : label}
      </Button>
      {footer ? (
        <p className="text-center text-sm text-slate-600">
          {footer.prompt}{" "}
          <Link className={authLinkClass} href={footer.href}>
            {footer.link}
          </Link>
        </p>
      ) : null}
    </form>
  );
}
