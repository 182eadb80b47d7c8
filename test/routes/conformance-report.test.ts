import { afterEach, describe, expect, it, vi } from "vitest";
import * as reportRoute from "@/app/conformance/[[...path]]/route";
import { callDemo } from "@/test/route-calls";

afterEach(() => vi.unstubAllEnvs());

describe("GET /conformance/reports/{token} when reports cannot be read", () => {
  it("answers 503 conformance_unavailable in the envelope, still readable from any origin", async () => {
    // Nothing listens on port 1: the database is unreachable, as in an outage.
    vi.stubEnv("DATABASE_URL", "postgresql://chartkey@127.0.0.1:1/unreachable");
    const answer = await callDemo(reportRoute.GET, "/conformance/reports/abc", { params: { token: "abc" } });
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error: { type: "api_error", code: "conformance_unavailable", requestId: expect.stringMatching(/^req_/) } });
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
  });
});
