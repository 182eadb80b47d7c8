import * as ehrRoutes from "@/app/ehr/[[...path]]/route";
import { describe, expect, it } from "vitest";
import { ehrEndpoints, SANDBOX_CLIENT_ID } from "@/lib/ehr";
import { basicAuth, postToken, PROVIDER, sandboxClientAuth, tokensFor } from "@/test/ehr";
import { routeContext } from "@/test/factories";

async function postRevoke(form: Record<string, string>, headers: Record<string, string> = sandboxClientAuth(), providerId = PROVIDER) {
  const response = await ehrRoutes.POST(
    new Request(`http://localhost/ehr/${providerId}/revoke`, {
      method: "POST",
      body: new URLSearchParams(form),
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    }),
    routeContext({ providerId }),
  );
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === "" ? null : (JSON.parse(text) as Record<string, unknown>) };
}

describe("token revocation (RFC 7009) at the synthetic health systems", () => {
  it("is advertised in the SMART configuration as revocation_endpoint", async () => {
    const response = await ehrRoutes.GET(new Request(`http://localhost/ehr/${PROVIDER}/fhir/.well-known/smart-configuration`), routeContext({ providerId: PROVIDER }));
    expect((await response.json()).revocation_endpoint).toBe(ehrEndpoints(PROVIDER).revoke);
  });

  it("a revoked refresh token is refused at the token endpoint afterwards; the answer is 200 with no body, never cached", async () => {
    const tokens = await tokensFor();
    const revoked = await postRevoke({ token: String(tokens.refresh_token), token_type_hint: "refresh_token" });
    expect(revoked).toMatchObject({ status: 200, body: null });
    expect(revoked.headers.get("cache-control")).toBe("no-store");
    expect(await postToken({ grant_type: "refresh_token", refresh_token: String(tokens.refresh_token) })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // Again, or an unknown token, or an access token: 200 all the same (§2.2).
    expect((await postRevoke({ token: String(tokens.refresh_token) })).status).toBe(200);
    expect((await postRevoke({ token: "unknown" })).status).toBe(200);
    expect((await postRevoke({ token: String(tokens.access_token), token_type_hint: "access_token" })).status).toBe(200);
  });

  it("revokes nothing for another health system, and needs the client's authentication and a token", async () => {
    const tokens = await tokensFor();
    expect((await postRevoke({ token: String(tokens.refresh_token) }, sandboxClientAuth("lakeshore-health"), "lakeshore-health")).status).toBe(200);
    expect(await postRevoke({ token: String(tokens.refresh_token) }, { authorization: basicAuth(SANDBOX_CLIENT_ID, "wrong") })).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(await postRevoke({})).toMatchObject({ status: 400, body: { error: "invalid_request" } });
    expect((await postToken({ grant_type: "refresh_token", refresh_token: String(tokens.refresh_token) })).status).toBe(200);
  });
});
