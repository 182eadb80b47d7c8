import { describe, expect, it } from "vitest";
import { addressPrefix, connectionClientAddress, requestClientAddress, UNKNOWN_ADDRESS } from "./client-address";
import { INTERNAL_HEADER } from "./headers";

describe("connectionClientAddress", () => {
  it("uses the socket's peer and ignores forwarding headers when no proxy is trusted", () => {
    expect(connectionClientAddress("198.51.100.7", "203.0.113.1", 0)).toBe("198.51.100.7");
    expect(connectionClientAddress("::ffff:198.51.100.7", undefined, 0)).toBe("198.51.100.7");
    expect(connectionClientAddress(undefined, undefined, 0)).toBe(UNKNOWN_ADDRESS);
  });

  it("takes the hop the trusted proxies appended, never what the client wrote further left", () => {
    // The client forged "1.1.1.1"; one proxy appended the real peer 203.0.113.9.
    expect(connectionClientAddress("10.0.0.2", "1.1.1.1, 203.0.113.9", 1)).toBe("203.0.113.9");
    // Two proxies: the second appended the first proxy's address.
    expect(connectionClientAddress("10.0.0.3", "1.1.1.1, 203.0.113.9, 10.0.0.2", 2)).toBe("203.0.113.9");
    // Fewer entries than trusted hops: fall back to the socket.
    expect(connectionClientAddress("10.0.0.3", "", 2)).toBe("10.0.0.3");
  });
});

describe("connectionClientAddress with a forwarded entry that is not an address", () => {
  it("falls back to the socket's peer instead of taking the text as the client's address", () => {
    // Found by the OpenAPI fuzz test: a 5,000-character entry became the address, and agent-token requests answered 500.
    expect(connectionClientAddress("10.0.0.1", "a".repeat(5000), 1)).toBe("10.0.0.1");
    expect(connectionClientAddress("10.0.0.1", "203.0.113.9, <script>", 1)).toBe("10.0.0.1");
    expect(connectionClientAddress("10.0.0.1", "2001:db8::1", 1)).toBe("2001:db8::1");
  });
});

describe("requestClientAddress", () => {
  it("reads the address the server recorded", () => {
    const request = new Request("http://localhost/", { headers: { [INTERNAL_HEADER.clientAddress]: "192.0.2.1" } });
    expect(requestClientAddress(request)).toBe("192.0.2.1");
    expect(requestClientAddress(new Request("http://localhost/", { headers: { "x-forwarded-for": "192.0.2.9" } }))).toBe(UNKNOWN_ADDRESS);
  });
});

describe("addressPrefix", () => {
  it("counts an IPv4 address alone and an IPv6 address by its /64", () => {
    expect(addressPrefix("198.51.100.7")).toBe("198.51.100.7");
    expect(addressPrefix("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(addressPrefix("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressPrefix("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressPrefix("2001:db8:1:3::1")).not.toBe(addressPrefix("2001:db8:1:2::1"));
    expect(addressPrefix(UNKNOWN_ADDRESS)).toBe(UNKNOWN_ADDRESS);
  });
});
