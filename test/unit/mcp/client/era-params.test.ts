import { expect, test } from "bun:test";
import { paramsForEra } from "../../../../src/mcp/client/era-params.ts";

const options = { capabilities: { roots: { listChanged: true } }, logLevel: "warning" as const };

test("modern: every request carries the version, our identity, capabilities and the log level", () => {
  expect(paramsForEra("modern", { name: "echo" }, options)).toEqual({
    name: "echo",
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "cat-code", version: expect.any(String) },
      "io.modelcontextprotocol/clientCapabilities": { roots: { listChanged: true } },
      "io.modelcontextprotocol/logLevel": "warning",
    },
  });
  expect(paramsForEra("modern", undefined, { ...options, progressToken: 7 })).toMatchObject({ _meta: { progressToken: 7 } });
});

test("legacy: the params as given, with only a progress token added beside the caller's _meta", () => {
  const params = { name: "echo", _meta: { mine: 1 } };
  expect(paramsForEra("legacy", params, options)).toBe(params);
  expect(paramsForEra("legacy", params, { ...options, progressToken: "p1" })).toEqual({ name: "echo", _meta: { mine: 1, progressToken: "p1" } });
  expect(params._meta).toEqual({ mine: 1 });
});

test("params that are not an object are refused", () => {
  expect(() => paramsForEra("legacy", [1, 2], options)).toThrow("request params must be an object");
});
