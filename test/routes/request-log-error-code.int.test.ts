import { describe, expect, it } from "vitest";
import { flushRequestLog } from "@/lib/http";
import { recentRequests } from "@/lib/usage";
import { bearer, createTestApplication } from "@/test/factories";
import { dispatchApiRequest } from "@/lib/routes";

describe("the request log records the error envelope's code", () => {
  it("a keyed request answered with an error is logged with its code; a success with none", async () => {
    const { application, sandboxKey } = await createTestApplication();
    const ok = await dispatchApiRequest(new Request("http://localhost/api/v1/app", { headers: bearer(sandboxKey) }));
    expect(ok.status).toBe(200);
    const missing = await dispatchApiRequest(
      new Request("http://localhost/api/v1/users/u_missing/records", { headers: bearer(sandboxKey) }),
    );
    expect(missing.status).toBe(404);
    const requestId = missing.headers.get("request-id");
    expect(requestId).toBeTruthy();
    await flushRequestLog();
    const { items } = await recentRequests({ applicationId: application.id, limit: 10 });
    expect(items.map((item) => [item.status, item.errorCode])).toEqual([
      [404, "not_found"],
      [200, null],
    ]);
    expect(items[0]!.requestId).toBe(requestId);
  });
});
