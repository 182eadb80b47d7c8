import { ZodError } from "zod";
import { AccountError } from "@/lib/accounts";
import { ApiError } from "@/lib/http";
import { log } from "@/lib/log";
import { TeamError } from "@/lib/team";

export type ActionFailure = { ok: false; error: string };

/**
 * What a server action answers when it could not do what was asked: the refusal's own words for expected refusals
 * (a role without the permission, invalid input, a missing item, an API rule the sandbox functions apply), and a plain apology with a reference for anything
 * else, which is logged once (never with the input, which may hold secrets).
 */
export function actionFailure(error: unknown): ActionFailure {
  if (error instanceof TeamError || error instanceof ApiError || error instanceof AccountError) return { ok: false, error: error.message };
  if (error instanceof ZodError) return { ok: false, error: error.issues[0]?.message ?? "Check the form and try again." };
  const reference = Math.random().toString(36).slice(2, 10);
  log.error({ event: "dashboard.action_failed", reference, err: (error as Error)?.stack ?? String(error) }, "dashboard action failed");
  return { ok: false, error: `That did not work and nothing was changed. Try again; if it keeps failing, quote reference ${reference}.` };
}
