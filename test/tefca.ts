import { bearer } from "@/test/factories";
import { dispatchApiRequest } from "@/lib/routes";

const BASE = "http://localhost/api/v1";

export type Json = Record<string, unknown> & { error?: { code: string; message: string } };
export type TefcaCall = { status: number; headers: Headers; body: Json };
export type SessionBody = Json & {
  id: string;
  state: string;
  version: number;
  categories: string[];
  documents: { id: string; organizationId: string; category: string; resourceCount: number }[];
  selectedDocumentIds: string[];
  retrievedResourceCount: number;
};

type Options = { body?: unknown; rawBody?: string; headers?: Record<string, string> };

/** Calls a TEFCA operation as the server does: a Request with the key, an optional JSON body and headers. */
async function call(method: "GET" | "POST", path: string, key: string, options: Options = {}): Promise<TefcaCall> {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await dispatchApiRequest(
    new Request(`${BASE}${path}`, {
      method,
      headers: { ...(bearer(key) as Record<string, string>), ...(body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
      body,
    }),
  );
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
}

export const tefca = {
  config: (key: string) => call("GET", "/tefca/config", key),
  create: (key: string, body: unknown, options: Omit<Options, "body"> = {}) => call("POST", "/tefca/sessions", key, { ...options, body }),
  get: (key: string, sessionId: string) => call("GET", `/tefca/sessions/${sessionId}`, key),
  discover: (key: string, sessionId: string, options: Options = {}) =>
    call("POST", `/tefca/sessions/${sessionId}/discover`, key, options),
  retrieve: (key: string, sessionId: string, body: unknown, options: Omit<Options, "body"> = {}) =>
    call("POST", `/tefca/sessions/${sessionId}/retrieve`, key, { ...options, body }),
  export: (key: string, sessionId: string, format?: string) =>
    call("GET", `/tefca/sessions/${sessionId}/export${format ? `?format=${format}` : ""}`, key),
  revoke: (key: string, sessionId: string, options: Options = {}) => call("POST", `/tefca/sessions/${sessionId}/revoke`, key, options),
};

export const TEFCA_TEST_PATIENT = "tefca-synthetic-rosa";

/** A started session of the application whose key this is, for the fixed patient and the categories. */
export async function startedSession(key: string, categories: string[] = ["medications", "allergies", "labs"]): Promise<SessionBody> {
  const created = await tefca.create(key, { patientId: TEFCA_TEST_PATIENT, categories });
  if (created.status !== 201) throw new Error(`TEFCA session not created: ${JSON.stringify(created.body)}`);
  return created.body as SessionBody;
}

/** A session that has discovered its documents. */
export async function discoveredSession(key: string, categories?: string[]): Promise<SessionBody> {
  const session = await startedSession(key, categories);
  const discovered = await tefca.discover(key, session.id, { body: {} });
  if (discovered.status !== 200) throw new Error(`TEFCA discovery failed: ${JSON.stringify(discovered.body)}`);
  return discovered.body as SessionBody;
}
