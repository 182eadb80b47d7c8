import { Slot } from "radix-ui";
import type { ButtonHTMLAttributes } from "react";

const BASE =
  "inline-flex items-center justify-center gap-2 rounded-md font-medium transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60";

const VARIANTS = {
  primary: "bg-teal-800 text-white hover:bg-teal-900 focus-visible:ring-teal-700",
  secondary: "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 focus-visible:ring-teal-700",
  danger: "bg-red-700 text-white hover:bg-red-800 focus-visible:ring-red-700",
  ghost: "text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:ring-teal-700",
} as const;

const SIZES = { sm: "px-2.5 py-1.5 text-sm", md: "px-4 py-2 text-sm" } as const;

export type ButtonVariant = keyof typeof VARIANTS;

/** The classes of a button, for links that look like one. */
export function buttonClass(variant: ButtonVariant = "primary", size: keyof typeof SIZES = "md"): string {
  return `${BASE} ${VARIANTS[variant]} ${SIZES[size]}`;
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: keyof typeof SIZES;
  /** Render the child element (a link) with the button's look. */
  asChild?: boolean;
  pending?: boolean;
};

export function Button({ variant = "primary", size = "md", asChild, pending, className = "", children, disabled, ...props }: ButtonProps) {
  const Component = asChild ? Slot.Root : "button";
  return (
    <Component
      className={`${buttonClass(variant, size)} ${className}`}
      disabled={asChild ? undefined : disabled || pending}
      aria-busy={pending || undefined}
      {...(asChild ? {} : { type: props.type ?? "button" })}
      {...props}
    >
      {children}
    </Component>
  );
}
