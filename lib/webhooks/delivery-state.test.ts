import { describe, expect, it } from "vitest";
import { deliveryState } from "./delivery-log";
import { NO_ANSWER, noAnswerCause } from "./outbound";

const failure = (code: string, message = "") => Object.assign(new Error(message), { code });

describe("what a delivery's state and failure read as", () => {
  it("a pending delivery that failed an attempt is retrying; one never tried is pending", () => {
    expect(deliveryState("pending", 0)).toBe("pending");
    expect(deliveryState("pending", 1)).toBe("retrying");
    expect(deliveryState("pending", 7)).toBe("retrying");
    expect(deliveryState("failed", 8)).toBe("failed");
    expect(deliveryState("succeeded", 2)).toBe("succeeded");
  });

  it("tells a name that does not resolve, a refused connection, a timeout, a TLS failure and a closed connection apart", () => {
    expect(noAnswerCause(failure("ENOTFOUND"))).toBe("could not deliver: the endpoint's host name does not resolve (DNS)");
    expect(noAnswerCause(failure("EAI_AGAIN"))).toBe("could not deliver: the endpoint's host name does not resolve (DNS)");
    expect(noAnswerCause(failure("ECONNREFUSED"))).toBe("could not deliver: the connection was refused (nothing listens at that address and port)");
    expect(noAnswerCause("timeout", 15_000)).toBe("could not deliver: no answer within 15 s (timeout)");
    expect(noAnswerCause(failure("ERR_SSL_WRONG_VERSION_NUMBER"))).toBe("could not deliver: the TLS handshake failed (ERR_SSL_WRONG_VERSION_NUMBER)");
    expect(noAnswerCause(failure("CERT_HAS_EXPIRED"))).toBe("could not deliver: the TLS handshake failed (CERT_HAS_EXPIRED)");
    expect(noAnswerCause(failure("ECONNRESET"))).toBe("could not deliver: the endpoint closed the connection before answering");
    expect(noAnswerCause(Object.assign(new Error("socket hang up"), { code: undefined }))).toBe("could not deliver: the endpoint closed the connection before answering");
    expect(noAnswerCause(failure("EHOSTUNREACH"))).toBe(`${NO_ANSWER} (EHOSTUNREACH)`);
  });
});
