/**
 * A server's log message at warning or worse gets one line in the REPL (`⚠ <server>: <message>`):
 * news above the prompt between turns. Below warning nothing is shown. The REPL runs in this
 * process with piped streams and a pool of in-memory servers, since McpClient parses
 * notifications/message only from the next round on: the test speaks through the onLog the pool
 * gave the client.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import type { McpClientOptions } from "../../../src/mcp/client/mcp-client.ts";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { ReplController } from "../../../src/repl/repl-controller.ts";
import { initializeHandler, MemoryTransport } from "../../helpers/memory-transport.ts";
import { tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";

const home = process.env.CAT_CODE_HOME;
beforeEach(() => (process.env.CAT_CODE_HOME = tempDir()));
afterEach(() => (process.env.CAT_CODE_HOME = home));

test("a server's warning is one sanitized line in the REPL; an info message is not shown", async () => {
  const entry: ServerEntry = { name: "files", scope: "user", source: "test", ok: true, config: { type: "stdio", command: "x", args: [], env: {} } };
  const pool = new ServerPool([entry], {
    createTransport: () => new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [] }) }),
  });
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.on("data", (chunk) => (shown += chunk.toString()));
  const repl = new ReplController({ model: "claude-test", cwd: tempDir(), pool, allowAll: false, input, output }).run();

  const onLog = await waitFor(() => (pool.client("files") as unknown as { options: McpClientOptions } | undefined)?.options.onLog, "the server to connect");
  onLog({ server: "memory: test", level: "info", data: "indexed 3 files" });
  onLog({ server: "memory: test", level: "warning", data: "disk almost full\n\u001b[2Jand more" });
  input.write("/help\n");
  await waitFor(() => shown.includes("⚠ files: disk almost full"), () => `the warning line; output so far:\n${shown}`);
  input.end();
  expect(await repl).toBe(0);

  expect(shown).toContain("⚠ files: disk almost full and more\n");
  expect(shown).not.toContain("indexed 3 files");
  expect(shown).not.toContain("\u001b[2J");
});
