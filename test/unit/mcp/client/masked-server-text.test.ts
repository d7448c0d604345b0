import { describe, expect, test } from "bun:test";
import { maskErrorResult } from "../../../../src/mcp/client/masked-server-text.ts";
import { credentialForms } from "../../../../src/mcp/config/entry-secrets.ts";
import type { CallToolResult } from "../../../../src/mcp/protocol.ts";
import { MAX_RESULT_DEPTH } from "../../../../src/system/json-depth.ts";
import { nestedObject } from "../../../helpers/nested-object.ts";

const SECRET = "s3cret-Value";
const secrets = credentialForms([`Bearer ${SECRET}`]);

describe("maskErrorResult", () => {
  test("every string of an error result is masked: text, embedded resource text, structuredContent values and keys, _meta", () => {
    const result = {
      isError: true,
      content: [
        { type: "text", text: `token ${SECRET}` },
        { type: "resource", resource: { uri: `mem://${SECRET}`, text: `Bearer ${SECRET}` } },
      ],
      structuredContent: { list: [[SECRET], { deep: `x${SECRET}x` }], [SECRET]: true, n: 3, none: null },
      _meta: { echoed: SECRET },
    } as CallToolResult;
    expect(maskErrorResult(result, secrets)).toEqual({
      isError: true,
      content: [
        { type: "text", text: "token ***" },
        { type: "resource", resource: { uri: "mem://***", text: "***" } },
      ],
      structuredContent: { list: [["***"], { deep: "x***x" }], "***": true, n: 3, none: null },
      _meta: { echoed: "***" },
    } as CallToolResult);
  });

  test("a result that is no error is its tool's data, as it is", () => {
    const result = { isError: false, content: [{ type: "text", text: SECRET }] } as CallToolResult;
    expect(maskErrorResult(result, secrets)).toBe(result);
  });

  test("a `__proto__` key stays a plain key, and the walk stops at the depth any result is let in", () => {
    const hostile = JSON.parse(`{"isError":true,"content":[],"structuredContent":{"__proto__":{"polluted":"${SECRET}"}}}`) as CallToolResult;
    const masked = maskErrorResult(hostile, secrets) as { structuredContent: Record<string, unknown> };
    expect(Object.getPrototypeOf(masked.structuredContent)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(masked.structuredContent, "__proto__")?.value).toEqual({ polluted: "***" });
    const deep = maskErrorResult({ isError: true, content: [], structuredContent: nestedObject(MAX_RESULT_DEPTH + 10) } as CallToolResult, secrets);
    expect(JSON.stringify(deep)).toContain("(nested too deep, not shown)");
  });
});
