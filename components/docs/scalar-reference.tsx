"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

/**
 * Scalar's API reference over the two documents (the keyed API and the keyless demo), bundled with the page: no
 * fonts, scripts or proxy from elsewhere (the page's CSP allows only this origin). "Try it" sends from the browser
 * to this deployment with the key pasted into it, which Scalar keeps in memory only (persistAuth off).
 */
export function ScalarReference() {
  return (
    <ApiReferenceReact
      configuration={{
        sources: [
          { title: "Chartkey API (/api/v1)", slug: "platform", url: "/docs/openapi/platform.json", default: true },
          { title: "Demo API (/demo/v1, keyless)", slug: "demo", url: "/docs/openapi/demo.json" },
        ],
        withDefaultFonts: false,
        persistAuth: false,
        hideClientButton: false,
        mcp: { disabled: true },
        authentication: { preferredSecurityScheme: "apiKey" },
        defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
        hiddenClients: {
          c: true, clojure: true, csharp: true, dart: true, fsharp: true, http: true, java: true, kotlin: true, objc: true, ocaml: true,
          php: true, powershell: true, r: true, ruby: true, rust: true, swift: true,
          js: true,
          node: ["axios", "ofetch", "undici"],
          python: ["httpx_sync", "httpx_async", "python3"],
          go: false,
          shell: ["httpie", "wget"],
        },
      }}
    />
  );
}
