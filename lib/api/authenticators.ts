import { authenticateKey, type KeyAuth } from "@/lib/auth";

/**
 * How an operation's caller is identified. Each kind resolves a request to its principal or throws the spec's
 * 401/403; later kinds (dashboard session, run key, report token) register here and every route that names them
 * gets them through the same pipeline step. A delegated credential is not a kind: the authentication step takes one
 * on any keyed operation and answers with the parent key's authority (see `agentOperation`).
 */
export type Principals = { none: null; key: KeyAuth };
export type AuthKind = keyof Principals;

type Authenticator<K extends AuthKind> = (request: Request) => Promise<Principals[K]>;

export const AUTHENTICATORS: { [K in AuthKind]: Authenticator<K> } = {
  none: async () => null,
  key: (request) => authenticateKey(request.headers.get("authorization")),
};
