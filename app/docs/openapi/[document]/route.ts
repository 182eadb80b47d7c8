import { referenceDocument, type ReferenceDocumentKey } from "@/lib/openapi";

// The documents the /docs reference renders: each API's OpenAPI document with its error table and SDK samples
// (lib/openapi/reference-document.ts). Built once at build time; the APIs serve their plain documents themselves.
export const dynamic = "force-static";

const DOCUMENTS: Record<string, ReferenceDocumentKey> = { "platform.json": "platform", "demo.json": "demo" };

export function generateStaticParams() {
  return Object.keys(DOCUMENTS).map((document) => ({ document }));
}

export async function GET(_request: Request, { params }: { params: Promise<{ document: string }> }) {
  const key = DOCUMENTS[(await params).document];
  if (!key) return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain" } });
  return Response.json(referenceDocument(key));
}
