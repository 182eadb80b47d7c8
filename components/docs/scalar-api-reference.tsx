"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import { useEffect } from "react";
import "@scalar/api-reference-react/style.css";
import "./scalar-theme.css";

/**
 * Scalar's API reference over the two documents (the keyed API and the keyless demo), bundled with the page: no
 * fonts, scripts or proxy from elsewhere (the page's CSP allows only this origin). "Try it" sends from the browser
 * to this deployment with the key pasted into it, which Scalar keeps in memory only (persistAuth off). Scalar's hosted
 * extras (its web client link, AI agent, developer toolbar, telemetry) are off: they would send readers or the
 * documents to scalar.com.
 */
export function ScalarApiReference() {
  useEffect(() => {
    repairAria(document.body);
    const observer = new MutationObserver(() => repairAria(document.body));
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["role", "aria-expanded"] });
    return () => observer.disconnect();
  }, []);
  return (
    <ApiReferenceReact
      configuration={{
        sources: [
          { title: "Chartkey API (/api/v1)", slug: "platform", url: "/docs/openapi/platform.json", default: true },
          { title: "Demo API (/demo/v1, keyless)", slug: "demo", url: "/docs/openapi/demo.json" },
        ],
        withDefaultFonts: false,
        persistAuth: false,
        hideClientButton: true,
        showDeveloperTools: "never",
        agent: { disabled: true },
        telemetry: false,
        mcp: { disabled: true },
        authentication: { preferredSecurityScheme: "apiKey" },
        // The samples offered are the documents' own (x-codeSamples: the TypeScript SDK, then curl, Python and Go;
        // lib/openapi/reference-document.ts), in that order; none of Scalar's generated clients (Ruby, PHP, ...).
        hiddenClients: true,
      }}
    />
  );
}

/**
 * ARIA Scalar's "Try it" client gets wrong, repaired in place as it renders (axe: one critical, one serious):
 * - its key/value inputs are role="combobox" without aria-expanded (aria-required-attr): they are closed comboboxes
 *   until a suggestion list opens, so a missing aria-expanded is "false";
 * - its "More information" buttons are named but have role="none" (aria-prohibited-attr): a button that can be
 *   pressed is a button, so the role that hides it goes.
 */
export function repairAria(root: ParentNode) {
  for (const element of root.querySelectorAll('[role="combobox"]:not([aria-expanded])')) element.setAttribute("aria-expanded", "false");
  for (const element of root.querySelectorAll('button[role="none"][aria-label], button[role="presentation"][aria-label]')) element.removeAttribute("role");
}
