import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PatientView } from "@/lib/connect";
import { PatientViewSections } from "./patient-view";

const view: PatientView = {
  application: "Acme Health",
  subject: "u_example",
  sources: [{ name: "Riverbend Health", lastSyncedAt: new Date("2026-12-01T08:00:00Z") }],
  recordCounts: [
    { category: "labs", records: 12 },
    { category: "allergies", records: 1 },
    { category: "conditions", records: 0 },
  ],
  historyDays: 30,
  history: {
    requests: 5,
    days: [{ day: "2026-12-03", requests: 5, wholeRecordReads: 1, categories: [{ category: "labs", reads: 3 }, { category: "conditions", reads: 1 }], agentRequests: 3 }],
    agents: [
      { credentialId: "cred_a", purpose: "Plot the A1c trend", categories: ["labs"], issuedAt: new Date("2026-12-03T10:00:00Z"), expiresAt: new Date("2026-12-03T11:00:00Z"), revokedAt: null, requests: 3, wholeRecordReads: 0, reads: [{ category: "labs", reads: 3 }] },
      { credentialId: "cred_b", purpose: null, categories: [], issuedAt: null, expiresAt: null, revokedAt: null, requests: 0, wholeRecordReads: 0, reads: [] },
    ],
  },
  generatedAt: new Date("2026-12-06T00:00:00Z"),
};

/** The rendered sections as text, one space between elements. */
function text(locale: "en" | "es", shown: PatientView = view): string {
  return renderToStaticMarkup(createElement(PatientViewSections, { view: shown, locale, token: "tok" }))
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");
}

describe("the receipt page's view of who read what", () => {
  it("in English: the health systems, the records per category, each day's reads and the AI agent's purpose and reads", () => {
    const shown = text("en");
    expect(shown).toContain("Riverbend Health Last updated December 1, 2026");
    expect(shown).toContain("Lab results 12 records");
    expect(shown).toContain("Allergies 1 record");
    expect(shown).toContain("Conditions no records");
    expect(shown).toContain("December 3, 2026 5 requests · 3 of them by AI agents");
    expect(shown).toContain("Read: your whole shared record once, Lab results 3 times, and Conditions once");
    expect(shown).toContain("An AI agent of Acme Health, purpose: “Plot the A1c trend”, read Lab results 3 times.");
    expect(shown).toContain("Could read: Lab results. Access given December 3, 2026, until December 3, 2026.");
    expect(shown).toContain("An AI agent of Acme Health (its declared purpose was deleted with Chartkey's copy) read nothing.");
    expect(renderToStaticMarkup(createElement(PatientViewSections, { view, locale: "en", token: "tok" }))).toContain('href="/consent/tok/history" download=""');
  });

  it("in Spanish (usted)", () => {
    const shown = text("es");
    expect(shown).toContain("Última actualización: 1 de diciembre de 2026");
    expect(shown).toContain("Resultados de laboratorio 12 registros");
    expect(shown).toContain("5 solicitudes · 3 de ellas por agentes de IA");
    expect(shown).toContain("Un agente de IA de Acme Health, propósito: «Plot the A1c trend», leyó Resultados de laboratorio 3 veces.");
    expect(shown).toContain("Descargar este historial (JSON)");
  });

  it("once sharing ended, nothing read, no agent: it says so", () => {
    const shown = text("en", { ...view, sources: [], recordCounts: null, history: { requests: 0, days: [], agents: [] } });
    expect(shown).toContain("Chartkey holds no connection to a health system for Acme Health.");
    expect(shown).toContain("Acme Health can no longer read your records.");
    expect(shown).toContain("Acme Health has not read your records in the last 30 days.");
    expect(shown).toContain("Acme Health has not given any AI agent access to your records.");
  });
});
