import { authenticateKey, type KeyAuth } from "@/lib/auth";
import type { RequestHead } from "@/lib/http";

/**
 * How an operation's caller is identified. Each kind resolves a request to its principal or throws the spec's
 * 401/403. A conformance run's key is an API key like any other, and shared reports are keyless. A delegated
 * credential is not a kind either: the authentication step takes one on any keyed operation and answers with the
 * parent key's authority (see `agentOperation`).
 */
export type Principals = { none: null; key: KeyAuth };
export type AuthKind = keyof Principals;

type Authenticator<K extends AuthKind> = (request: RequestHead) => Promise<Principals[K]>;

export const AUTHENTICATORS: { [K in AuthKind]: Authenticator<K> } = {
  none: async () => null,
  key: (request) => authenticateKey(request.headers.get("authorization")),
};
