import { expect, test } from "bun:test";
import { numericIpv4, privateAddressReason } from "../../../src/system/network-address.ts";

test("addresses in the user's own network are private, however they are written; public ones are not", () => {
  const cases: Record<string, string | undefined> = {
    "127.0.0.1": "a loopback address",
    "10.1.2.3": "a private address",
    "172.16.0.1": "a private address",
    "192.168.1.1": "a private address",
    "169.254.169.254": "a link-local address (cloud metadata lives there)",
    "100.64.0.1": "a carrier-grade NAT address",
    "0.0.0.0": "an unspecified address",
    "::1": "a loopback address",
    "[::1]": "a loopback address",
    "::": "an unspecified address",
    "::ffff:127.0.0.1": "a loopback address",
    "::ffff:7f00:1": "a loopback address",
    "::ffff:a9fe:a9fe": "a link-local address (cloud metadata lives there)",
    "64:ff9b::a00:1": "a private address",
    "2002:c0a8:101::": "a private address",
    "fd12:3456::1": "a unique-local address",
    "fe80::1%eth0": "a link-local address",
    "ff02::1": "a multicast address",
    "8.8.8.8": undefined,
    "172.32.0.1": undefined,
    "2606:4700:4700::1111": undefined,
    "::ffff:8.8.8.8": undefined,
    "not-an-address": "not an address that could be checked",
  };
  for (const [address, reason] of Object.entries(cases)) expect([address, privateAddressReason(address)]).toEqual([address, reason]);
});

test("the numeric host forms inet_aton accepts are read as the IPv4 address they spell", () => {
  expect(["2130706433", "0x7f000001", "0x7f.1", "0177.0.0.1", "127.1", "127.0.0.1."].map(numericIpv4)).toEqual(Array(6).fill("127.0.0.1"));
  expect(numericIpv4("example.com")).toBeUndefined();
  expect(numericIpv4("1.2.3.4.5")).toBeUndefined();
  // Out of range: not a usable address, and not a public one either.
  expect(numericIpv4("99999999999")).toBe("0.0.0.0");
});
