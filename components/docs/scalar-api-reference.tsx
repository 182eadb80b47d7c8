"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
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
        defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
      }}
    />
  );
}
