/**
 * A one-shot command (`mcp call`, `tools`, `list`, `get`) ends as soon as it has its answer, so it
 * never opens the 2026-07-28 `subscriptions/listen` stream that the REPL keeps for tool changes.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runBinary } from "../../helpers/binary.ts";
import { BUN, MODERN_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";

test("mcp call on a 2026-07-28 server that announces tool changes sends no subscriptions/listen", async () => {
  const record = join(tempDir(), "requests.jsonl");
  const config = writeConfig({ modern: { command: BUN, args: [MODERN_SERVER, "--stdio", "--record", record] } });
  const result = await runBinary(["mcp", "call", "--mcp-config", config, "modern", "echo", "text=hi"], { env: { CAT_CODE_HOME: tempDir() } });
  expect(result.stdout).toBe("hi\n");
  expect(result.exitCode).toBe(0);
  const methods = readFileSync(record, "utf8").trim().split("\n").map((line) => JSON.parse(line).method);
  // The server does announce changes (discover says so), and still no listen stream was asked for.
  expect(methods).toContain("server/discover");
  expect(methods).toContain("tools/call");
  expect(methods).not.toContain("subscriptions/listen");
});
