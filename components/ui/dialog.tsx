"use client";

import { X } from "lucide-react";
import { Dialog as RadixDialog } from "radix-ui";
import type { ReactNode } from "react";

type DialogProps = {
  title: string;
  description?: ReactNode;
  /** The element that opens the dialog (a Button). */
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: ReactNode;
};

/** A modal dialog: focus moves in and back out, Escape closes it, and it is titled for screen readers. */
export function Dialog({ title, description, trigger, open, onOpenChange, children }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger> : null}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <RadixDialog.Content className="fixed inset-x-2 top-[8vh] z-50 mx-auto max-h-[84vh] max-w-lg overflow-y-auto rounded-lg bg-white p-5 shadow-xl focus:outline-none sm:inset-x-4 sm:p-6">
          <div className="flex items-start justify-between gap-4">
            <RadixDialog.Title className="text-lg font-semibold text-slate-900">{title}</RadixDialog.Title>
            <RadixDialog.Close className="rounded p-1 text-slate-600 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-teal-700" aria-label="Close">
              <X aria-hidden="true" className="h-5 w-5" />
            </RadixDialog.Close>
          </div>
          {description ? <RadixDialog.Description className="mt-1 text-sm text-slate-600">{description}</RadixDialog.Description> : <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>}
          <div className="mt-4">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
