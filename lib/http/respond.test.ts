import { describe, expect, it } from "vitest";
import { errorResponse } from "./error-response";
import { isDatabaseError, toApiError } from "./respond";

describe("toApiError for a database that did not answer in time", () => {
  it("answers 503 database_unavailable in the error envelope, with Retry-After", async () => {
    const apiError = toApiError(new Error("Query read timeout"), "req_1");
    expect([apiError.code, apiError.status]).toEqual(["database_unavailable", 503]);
    const response = errorResponse(apiError, "req_1");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("2");
    expect(await response.json()).toEqual({
      error: { type: "api_error", code: "database_unavailable", message: "The database did not answer in time; retry with backoff.", requestId: "req_1" },
    });
  });

  it("does so for a pool that could not hand out a connection in time too", () => {
    for (const error of [new Error("timeout exceeded when trying to connect"), new Error("Connection terminated due to connection timeout", { cause: new Error("timeout expired") })]) {
      expect(toApiError(error, "req_2").code).toBe("database_unavailable");
      expect(isDatabaseError(error)).toBe(true);
    }
  });

  it("leaves a database that answered with an error, or refused the connection, at 500 database_error", () => {
    expect(toApiError(Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }), "req_3").code).toBe("database_error");
    expect(toApiError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), "req_4").code).toBe("database_error");
  });
});
