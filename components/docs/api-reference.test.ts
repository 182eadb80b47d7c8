import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { platformOpenApiDocument } from "@/lib/openapi";
import { TEFCA_OPERATIONS } from "@/lib/tefca";
import { ApiReference } from "./api-reference";

/** The docs page's reference section, rendered as the page renders it, then read back as text. */
function renderedPlatformReference(): string {
  return renderToStaticMarkup(createElement(ApiReference, { document: platformOpenApiDocument(), documentKey: "platform", jsonHref: "/api/v1/openapi.json" }));
}

function decoded(html: string): string {
  return html.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
}

function article(html: string, operationId: string): string {
  const start = html.indexOf(`<article id="platform-${operationId}"`);
  expect(start, operationId).toBeGreaterThanOrEqual(0);
  return decoded(html.slice(start, html.indexOf("</article>", start)));
}

describe("the API reference page", () => {
  it("shows every TEFCA operation with its request example (bodies) and its response example", () => {
    const html = renderedPlatformReference();
    for (const operation of TEFCA_OPERATIONS) {
      const card = article(html, operation.operationId);
      expect(card).toContain(operation.path);
      expect(card).toContain(JSON.stringify(operation.success.example!(), null, 2));
      if (operation.bodyExample) expect(card).toContain(JSON.stringify(operation.bodyExample(), null, 2));
      for (const code of operation.errors) expect(card).toContain(code);
    }
    expect(article(html, "createTefcaSession")).toContain('"patientId": "tefca-synthetic-rosa"');
    expect(article(html, "retrieveTefcaDocuments")).toContain("If-Match");
  });
});
