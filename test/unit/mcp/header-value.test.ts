import { describe, expect, test } from "bun:test";
import { decodeHeaderValue, encodeHeaderValue } from "../../../src/mcp/header-value.ts";

describe("encodeHeaderValue", () => {
  // The encoding examples of the 2026-07-28 Streamable HTTP spec, "Value Encoding", row by row.
  test.each([
    ["plain ASCII", "us-west1", "us-west1"],
    ["non-ASCII", "Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    ["leading and trailing spaces", " padded ", "=?base64?IHBhZGRlZCA=?="],
    ["a newline", "line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["a value that looks like the sentinel", "=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
  ])("the spec's example with %s", (_, value, header) => {
    expect(encodeHeaderValue(value)).toBe(header);
  });

  test("inner spaces and every visible ASCII character stay plain", () => {
    expect(encodeHeaderValue("us west 1")).toBe("us west 1");
    const visible = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join("");
    expect(encodeHeaderValue(visible)).toBe(visible);
  });

  test.each([
    ["a leading space only", " us-west1"],
    ["a trailing space only", "us-west1 "],
    ["a tab", "\tindented"],
    ["an inner tab", "a\tb"],
    ["CR LF (header injection)", "x\r\nSet-Cookie: a=b"],
    ["a NUL", "a\u0000b"],
    ["DEL", "a\u007fb"],
    ["a C1 control", "a\u009bb"],
    ["an emoji (a surrogate pair)", "ok 👍"],
    ["nothing at all", ""],
    ["the overlapping sentinel", "=?base64?="],
  ])("a value with %s is base64, and decodes back", (_, value) => {
    const header = encodeHeaderValue(value);
    expect(header.startsWith("=?base64?")).toBe(true);
    expect(header.endsWith("?=")).toBe(true);
    expect(header).not.toMatch(/[\r\n\t\u0000]/);
    expect(decodeHeaderValue(header)).toBe(value);
  });

  test("an empty value is the empty sentinel", () => {
    expect(encodeHeaderValue("")).toBe("=?base64??=");
    expect(decodeHeaderValue("=?base64??=")).toBe("");
  });
});

describe("decodeHeaderValue", () => {
  test("a plain value is itself", () => {
    expect(decodeHeaderValue("us-west1")).toBe("us-west1");
    expect(decodeHeaderValue("=?base64")).toBe("=?base64");
  });

  test("every spec example decodes to its original", () => {
    expect(decodeHeaderValue("=?base64?SGVsbG8sIOS4lueVjA==?=")).toBe("Hello, 世界");
    expect(decodeHeaderValue("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=")).toBe("=?base64?literal?=");
  });

  test.each([
    ["base64 without its padding", "=?base64?SGk?="],
    ["characters outside base64", "=?base64?SG*k?="],
    ["bytes that are not UTF-8", "=?base64?/w==?="],
    ["the prefix and suffix overlapping", "=?base64?="],
  ])("a sentinel with %s is malformed", (_, header) => {
    expect(decodeHeaderValue(header)).toBeUndefined();
  });
});
