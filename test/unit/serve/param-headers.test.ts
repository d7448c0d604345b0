/**
 * `mcp serve --http`'s check of a 2026-07-28 tool call's `Mcp-Param-*` headers against the served
 * tool's `x-mcp-header` markings (SEP-2243): the cases of the spec's table and the conformance
 * scenario `http-custom-header-server-validation`, and what a hostile schema or body cannot do.
 */
import { describe, expect, test } from "bun:test";
import { paramHeaderMismatch } from "../../../src/serve/param-headers.ts";

/** raw-peers.ts has the same, but importing it would put this file in the process tier. */
const base64 = (text: string) => `=?base64?${Buffer.from(text).toString("base64")}?=`;

const SCHEMA = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    count: { type: "integer", "x-mcp-header": "Count" },
    dry: { type: "boolean", "x-mcp-header": "Dry" },
    target: { type: "object", properties: { zone: { type: "string", "x-mcp-header": "Zone" } } },
    note: { type: "string" },
  },
};
const check = (headers: Record<string, string>, args: unknown, schema: unknown = SCHEMA) => paramHeaderMismatch(new Headers(headers), schema, args);

describe("headers that agree with the body", () => {
  test("each marked argument as a client writes it: plain, integer in decimal, boolean, nested; header names ignore case", () => {
    const args = { region: "us-west1", count: 3, dry: false, target: { zone: "b" }, note: "not marked" };
    expect(check({ "Mcp-Param-Region": "us-west1", "mcp-param-count": "3", "MCP-PARAM-DRY": "false", "Mcp-Param-Zone": "b" }, args)).toBeUndefined();
  });

  test("a =?base64?…?= value is decoded, wherever the client chose it; a value missing the prefix or the suffix is literal", () => {
    expect(check({ "Mcp-Param-Region": base64("Hello") }, { region: "Hello" })).toBeUndefined();
    expect(check({ "Mcp-Param-Region": base64("naïve  ") }, { region: "naïve  " })).toBeUndefined();
    const encoded = Buffer.from("Hello").toString("base64");
    expect(check({ "Mcp-Param-Region": encoded }, { region: encoded })).toBeUndefined();
    expect(check({ "Mcp-Param-Region": `=?base64?${encoded}` }, { region: `=?base64?${encoded}` })).toBeUndefined();
  });

  test("no marked argument and no header; a null argument sends none", () => {
    expect(check({}, { note: "x" })).toBeUndefined();
    expect(check({}, { region: null })).toBeUndefined();
    expect(check({}, undefined)).toBeUndefined();
  });
});

describe("headers that disagree (HeaderMismatch)", () => {
  test("an argument in the body without its header", () => {
    expect(check({}, { region: "test-value" })).toBe('the Mcp-Param-Region header is missing; the body has argument "region"');
    expect(check({ "Mcp-Param-Region": "a" }, { region: "a", target: { zone: "z" } })).toContain("Mcp-Param-Zone header is missing");
  });

  test("a value other than the body's, an integer written otherwise, a case change", () => {
    expect(check({ "Mcp-Param-Region": "eu" }, { region: "us" })).toBe('the Mcp-Param-Region header must equal argument "region" in the body');
    expect(check({ "Mcp-Param-Count": "3.0" }, { count: 3 })).toContain("Mcp-Param-Count header must equal");
    expect(check({ "Mcp-Param-Dry": "TRUE" }, { dry: true })).toContain("Mcp-Param-Dry header must equal");
  });

  test("base64 with bad padding or characters, or that is not UTF-8, is refused, not read as a literal", () => {
    expect(check({ "Mcp-Param-Region": "=?base64?SGVsbG8?=" }, { region: "Hello" })).toContain("not valid");
    expect(check({ "Mcp-Param-Region": "=?base64?SGVs!!!bG8=?=" }, { region: "Hello" })).toContain("not valid");
    expect(check({ "Mcp-Param-Region": "=?base64?/w==?=" }, { region: "\u00ff" })).toContain("not valid");
  });

  test("a header with no argument behind it did not come from this body", () => {
    expect(check({ "Mcp-Param-Region": "us" }, {})).toBe('the Mcp-Param-Region header names argument "region", which the body does not have');
  });
});

describe("what is not checked", () => {
  test("a tool with no markings, cat-code's own or an unknown tool (no schema), a schema that is no object", () => {
    expect(check({ "Mcp-Param-Region": "x" }, { region: "y" }, { type: "object", properties: { region: { type: "string" } } })).toBeUndefined();
    expect(paramHeaderMismatch(new Headers({ "Mcp-Param-Region": "x" }), undefined, { region: "y" })).toBeUndefined();
    expect(check({ "Mcp-Param-Region": "x" }, { region: "y" }, "not a schema")).toBeUndefined();
  });

  test("a tool whose markings break the rules (one a client leaves out) is not checked against them", () => {
    const broken = { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, extra: { type: "object", "x-mcp-header": "Extra" } } };
    expect(check({}, { region: "y" }, broken)).toBeUndefined();
  });

  test("an integer no header carries exactly is left unchecked (no client's header could agree)", () => {
    expect(check({}, { count: 2 ** 60 })).toBeUndefined();
  });
});
