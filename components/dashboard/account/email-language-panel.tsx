"use client";

import { useState } from "react";
import { toast } from "sonner";
import { setEmailLanguageAction } from "@/app/(dashboard)/dashboard/account/security/actions";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormAlert } from "@/components/ui/field";

const LANGUAGES = [
  { locale: "en", name: "English", lang: "en" },
  { locale: "es", name: "Español", lang: "es" },
] as const;

type EmailLocale = (typeof LANGUAGES)[number]["locale"];

/** The language of the account's emails: security notices, password reset and verification links, invitations. */
export function EmailLanguagePanel({ locale }: { locale: EmailLocale }) {
  const [chosen, setChosen] = useState<EmailLocale>(locale);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setRefusal(null);
    const result = await setEmailLanguageAction(chosen);
    setPending(false);
    if (!result.ok) return setRefusal(result.error);
    toast.success(result.message);
  }

  return (
    <Card>
      <CardHeader
        title="Email language"
        description="The language of the emails we send you: security notices, password reset and verification links, invitations and production decisions."
      />
      <CardBody>
        <form method="post" onSubmit={save} noValidate className="space-y-4">
          <FormAlert message={refusal} />
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Send my emails in</legend>
            <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
              {LANGUAGES.map((language) => (
                <label key={language.locale} className="flex items-center gap-2 text-sm" lang={language.lang}>
                  <input type="radio" name="locale" value={language.locale} checked={chosen === language.locale} onChange={() => setChosen(language.locale)} />
                  {language.name}
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" variant="secondary" pending={pending} disabled={chosen === locale && !pending}>
            Save email language
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
