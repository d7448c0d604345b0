import { expect, test } from "bun:test";
import { copyFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { ECHO_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";
import { findProcesses } from "../../helpers/processes.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import type { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/**
 * A server that dies while the REPL waits at its prompt, in a real terminal: the line says so at
 * once, above the prompt; the automatic restart says so too; the second death waits for
 * `/mcp reconnect`.
 */
const repl = replUnderTest();
let terminal: PtyTerminal | undefined;

/** The one live process of the server copy at `path` (a path of its own: no other test's server matches). */
async function serverPid(path: string, not?: number): Promise<number> {
  return waitFor(async () => (await findProcesses(path)).find((pid) => pid !== not), `a process of ${path}`);
}

test("a server killed while the REPL is idle: FAILED at once on screen, restarted once, then /mcp reconnect", async () => {
  const dir = tempDir();
  const server = join(dir, "dying-echo-server.sh");
  copyFileSync(ECHO_SERVER, server);
  chmodSync(server, 0o755);
  const config = writeConfig({ echo: { command: server } }, dir);
  terminal = repl.pty({ cwd: dir, home: join(dir, "home"), mcpConfig: config, env: { ANTHROPIC_API_KEY: "" } });
  await terminal.waitForText("MCP: 1 server(s), 1 tool(s) registered", 20_000);

  const first = await serverPid(server);
  process.kill(first, "SIGKILL");
  await terminal.waitForText("MCP server 'echo' failed: the server was killed by SIGKILL; its tools are gone (restarting it in 1 s)");
  let screen = await terminal.waitForText("MCP server 'echo' restarted: 1 tool(s)");
  expect(screen.split("\n").at(-1)).toBe(">");
  terminal.type("/mcp");
  await terminal.waitForText("last error: the server was killed by SIGKILL");

  process.kill(await serverPid(server, first), "SIGKILL");
  await terminal.waitForText("MCP server 'echo' failed: the server was killed by SIGKILL; its tools are gone (/mcp reconnect echo restarts it)");
  terminal.type("/mcp");
  await terminal.waitForText("echo  FAILED  the server was killed by SIGKILL → /mcp reconnect echo");
  terminal.type("/mcp reconnect echo");
  screen = await terminal.waitForText("MCP server 'echo' reconnected: 1 tool(s)");
  terminal.type("/exit");
  await terminal.waitForText("[exit 0]");
}, 40_000);
