"use client";

import type { ReactNode } from "react";
import { IntlProvider } from "use-intl";
import type { Locale, Messages } from "@/lib/i18n/schemas";

/** The catalog for the patient pages' client components (the provider picker, the import progress). */
export function PatientIntlProvider({ locale, messages, children }: { locale: Locale; messages: Messages; children: ReactNode }) {
  return (
    <IntlProvider locale={locale} messages={messages} timeZone="UTC">
      {children}
    </IntlProvider>
  );
}
