"use client";

import { AlertDialog } from "radix-ui";
import { useState, useTransition, type ReactNode } from "react";
import { toast } from "sonner";
import type { ActionResult } from "@/lib/dashboard";
import { Button, type ButtonVariant } from "./button";


type ConfirmActionProps = {
  /** The button that asks. */
  label: ReactNode;
  variant?: ButtonVariant;
  size?: "sm" | "md";
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** Runs after confirmation; its message becomes the toast. */
  action: () => Promise<ActionResult>;
  /** Typed confirmation for destructive, irreversible actions (e.g. the application's name). */
  requireText?: string;
  disabled?: boolean;
  onDone?: () => void;
};

/**
 * A button that asks before it acts: an alert dialog naming the consequence, with Cancel focused first so Enter
 * never destroys anything by accident. The result is a toast; the dialog stays open on failure.
 */
export function ConfirmAction({ label, variant = "danger", size = "sm", title, description, confirmLabel, action, requireText, disabled, onDone }: ConfirmActionProps) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [pending, startTransition] = useTransition();
  const confirmed = !requireText || typed === requireText;

  function run() {
    startTransition(async () => {
      const result = await action();
      if (result.ok) {
        toast.success(result.message);
        setOpen(false);
        setTyped("");
        onDone?.();
      } else {
        toast.error(result.error);
      }
    });
  }

  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger asChild>
        <Button variant={variant} size={size} disabled={disabled}>
          {label}
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <AlertDialog.Content className="fixed inset-x-2 top-[12vh] z-50 mx-auto max-w-md rounded-lg bg-white p-5 shadow-xl focus:outline-none sm:inset-x-4 sm:p-6">
          <AlertDialog.Title className="text-lg font-semibold text-slate-900">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 space-y-2 text-sm text-slate-700">{description}</div>
          </AlertDialog.Description>
          {requireText ? (
            <label className="mt-4 block text-sm font-medium text-slate-800">
              Type <span className="font-mono">{requireText}</span> to confirm
              <input
                className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-teal-700 focus:outline-none focus:ring-2 focus:ring-teal-700/30"
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                autoComplete="off"
              />
            </label>
          ) : null}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary">Cancel</Button>
            </AlertDialog.Cancel>
            <Button variant={variant === "danger" ? "danger" : "primary"} onClick={run} pending={pending} disabled={!confirmed}>
              {pending ? "Working…" : confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
