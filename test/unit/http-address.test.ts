import { describe, expect, it } from "vitest";
import { formatHttpAddress, isLoopbackHost, parseHttpAddress, sameEndpoint } from "../../src/core/http-address.js";

describe("HTTP addresses", () => {
  it("parse host:port, IPv6 in brackets, and refuse the rest", () => {
    expect(parseHttpAddress("127.0.0.1:8111")).toEqual({ host: "127.0.0.1", port: 8111 });
    expect(parseHttpAddress("[::1]:9000")).toEqual({ host: "::1", port: 9000 });
    expect(formatHttpAddress({ host: "::1", port: 9000 })).toBe("[::1]:9000");
    expect(parseHttpAddress("8111")).toBeNull();
    expect(parseHttpAddress("host:70000")).toBeNull();
  });

  it("know loopback, and treat loopback spellings of one port as one endpoint", () => {
    expect(isLoopbackHost("localhost")).toBe(true);
    expect(isLoopbackHost("127.0.0.2")).toBe(true);
    expect(isLoopbackHost("10.0.0.1")).toBe(false);
    const at = (t: string) => parseHttpAddress(t)!;
    expect(sameEndpoint(at("localhost:8111"), at("127.0.0.1:8111"))).toBe(true);
    expect(sameEndpoint(at("[::1]:8111"), at("127.0.0.1:8111"))).toBe(true);
    expect(sameEndpoint(at("localhost:8111"), at("127.0.0.1:8112"))).toBe(false);
    expect(sameEndpoint(at("10.0.0.1:8111"), at("127.0.0.1:8111"))).toBe(false);
  });
});
