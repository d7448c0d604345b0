import { describe, expect, test } from "bun:test";
import { atLeast, MAX_LOG_DATA_CHARS, parseServerLog } from "../../../../src/mcp/client/server-log.ts";
import { LOGGING_LEVELS } from "../../../../src/mcp/stateless-protocol.ts";
import { nestedObject } from "../../../helpers/nested-object.ts";

describe("parseServerLog", () => {
  test("a string message is kept as it is, with its level and logger", () => {
    expect(parseServerLog("files", { level: "warning", logger: "indexer", data: "disk almost full" })).toEqual({
      server: "files",
      level: "warning",
      logger: "indexer",
      data: "disk almost full",
    });
  });

  test("any other data is rendered as JSON", () => {
    expect(parseServerLog("s", { level: "error", data: { code: 5, path: "/x" } })?.data).toBe('{"code":5,"path":"/x"}');
    expect(parseServerLog("s", { level: "info", data: null })?.data).toBe("null");
  });

  test("the eight syslog levels are accepted; anything else, or no data, drops the message", () => {
    for (const level of LOGGING_LEVELS) expect(parseServerLog("s", { level, data: "x" })?.level).toBe(level);
    for (const params of [{ level: "warn", data: "x" }, { level: "WARNING", data: "x" }, { data: "x" }, { level: "info" }, null, "warning", { level: "info", logger: 3, data: "x" }]) {
      expect(parseServerLog("s", params)).toBeUndefined();
    }
  });

  test("data is bounded: a long string or a large object is cut to about 1000 characters", () => {
    const long = parseServerLog("s", { level: "error", data: "x".repeat(1_000_000) })?.data ?? "";
    expect(long.length).toBeLessThanOrEqual(MAX_LOG_DATA_CHARS);
    expect(long.endsWith("…")).toBe(true);
    const big = parseServerLog("s", { level: "error", data: { items: Array.from({ length: 10_000 }, (_, i) => i) } })?.data ?? "";
    expect(big.length).toBeLessThanOrEqual(MAX_LOG_DATA_CHARS);
    expect(parseServerLog("s", { level: "info", logger: "l".repeat(10_000), data: "x" })?.logger?.length).toBeLessThanOrEqual(100);
  });

  test("data nested too deep is not walked, and says so", () => {
    expect(parseServerLog("s", { level: "error", data: nestedObject(100_000) })?.data).toContain("nested deeper than");
  });
});

describe("atLeast", () => {
  test("orders the levels from debug to emergency", () => {
    expect(atLeast("warning", "warning")).toBe(true);
    expect(atLeast("error", "warning")).toBe(true);
    expect(atLeast("emergency", "warning")).toBe(true);
    expect(atLeast("notice", "warning")).toBe(false);
    expect(atLeast("debug", "info")).toBe(false);
    expect(atLeast("debug", "debug")).toBe(true);
  });
});
