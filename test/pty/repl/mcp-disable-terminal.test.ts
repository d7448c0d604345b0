import { expect, test } from "bun:test";
import { chmodSync, copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ECHO_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";
import { findProcesses } from "../../helpers/processes.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/** `/mcp disable` and `/mcp enable` at a real terminal: the server's process ends, the table says DISABLED, and the next session does not start it. */
const repl = replUnderTest();

test("/mcp disable ends the server and is kept for the project; the next session shows it DISABLED until /mcp enable", async () => {
  const dir = tempDir();
  const server = join(dir, "disabled-echo-server.sh");
  copyFileSync(ECHO_SERVER, server);
  chmodSync(server, 0o755);
  const config = writeConfig({ echo: { command: server } }, dir);
  const options = { cwd: dir, home: join(dir, "home"), mcpConfig: config, env: { ANTHROPIC_API_KEY: "" } };

  let terminal = repl.pty(options);
  await terminal.waitForText("MCP: 1 server(s), 1 tool(s) registered", 20_000);
  await waitFor(async () => (await findProcesses(server)).length === 1, "the server to run");
  // Tab completes the server's name after the subcommand.
  terminal.send("/mcp disable e", "Tab");
  await terminal.waitForText("> /mcp disable echo");
  terminal.send("Enter");
  await terminal.waitForText("MCP server 'echo' disabled: its 1 tool(s) are out of the conversation; kept in");
  await waitFor(async () => (await findProcesses(server)).length === 0, "the server's process to end");
  terminal.type("/mcp");
  await terminal.waitFor((screen) => /echo\s+DISABLED/.test(screen), "echo DISABLED in the table");
  expect(JSON.parse(readFileSync(join(dir, ".cat-code", "settings.json"), "utf8"))).toEqual({ disabledMcpServers: ["echo"] });
  terminal.type("/exit");
  await terminal.waitForText("[exit 0]");

  terminal = repl.pty(options);
  await terminal.waitForText(">", 20_000);
  terminal.type("/mcp");
  await terminal.waitFor((screen) => /echo\s+DISABLED/.test(screen), "echo DISABLED in the table");
  expect(await findProcesses(server)).toEqual([]);
  terminal.type("/mcp enable echo");
  await terminal.waitForText("MCP server 'echo' enabled: 1 tool(s).");
  expect(await findProcesses(server)).toHaveLength(1);
  terminal.type("/exit");
  await terminal.waitForText("[exit 0]");
}, 60_000);
