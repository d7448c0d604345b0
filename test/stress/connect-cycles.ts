/**
 * 200 connect/close cycles in one process, then a report on stdout, then nothing: the script never
 * calls process.exit, so it ends only if no timer, socket or child was left behind. The cycles mix
 * the paths where leaks hide: stdio servers that answer (bash), that crash before the handshake and
 * that never answer (a timeout), and Streamable HTTP against an in-process server.
 *
 * Every timer cat-code could leave behind (request timeouts, close grace periods, retry waits) is set
 * to LEFTOVER_MS (argv[2]), far longer than the test's bound on the exit: a leftover shows as a process that
 * does not exit, never as a slow machine. Only the hanging server's timeout is short: it must fire.
 *
 * Prints `CYCLES {"fdsBefore":…,"fdsAfter":…,"children":[…],"cycles":…}`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { McpClient } from "../../src/mcp/client/mcp-client.ts";
import { HttpTransport } from "../../src/mcp/transport/http-transport.ts";
import { StdioTransport } from "../../src/mcp/transport/stdio-transport.ts";
import { ScriptedServer } from "../../fixtures/http/scripted-server.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER } from "../helpers/paths.ts";
import { waitFor } from "../helpers/wait-for.ts";

/** From leaks.test.ts, which bounds the exit by it. */
const LEFTOVER_MS = Number(process.argv[2] ?? 60_000);

const env = process.env as Record<string, string>;
const openFds = () => readdirSync("/proc/self/fd").length;

/** Our live (non-zombie) children, from /proc: what a leaked server would be. */
function children(): string[] {
  const found: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(ppid) === process.pid && state !== "Z") found.push(`${entry} ${readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ")}`);
    } catch {
      // Gone since the listing.
    }
  }
  return found;
}

async function cycle(transport: StdioTransport | HttpTransport, timeoutMs = LEFTOVER_MS): Promise<void> {
  const client = new McpClient(transport, { timeoutMs });
  try {
    await client.connect();
    await client.listTools();
    await client.callTool("echo", { text: "x" }).catch(() => {});
  } catch {
    // Failing connects are part of the mix.
  } finally {
    await client.close();
  }
}

const http = new ScriptedServer((request) =>
  request.body?.method === "tools/call"
    ? Response.json({ jsonrpc: "2.0", id: request.body.id, result: { content: [{ type: "text", text: "x" }] } })
    : undefined,
);
const stdio = (command: string, args: string[]) => new StdioTransport({ command, args, env }, { closeGraceMs: LEFTOVER_MS });
const kinds = [
  () => stdio(ECHO_SERVER, []),
  () =>
    new HttpTransport(
      { url: http.url, headers: {} },
      { closeTimeoutMs: LEFTOVER_MS, defaultRetryMs: LEFTOVER_MS, notifyTimeoutMs: LEFTOVER_MS },
    ),
];

// One warm-up of each kind: the first use opens what the runtime keeps for good (its pipes, its pools).
for (const make of kinds) await cycle(make());
await cycle(stdio(BUN, [CHAOS_SERVER, "--crash=before-handshake"]));
const fdsBefore = openFds();

let cycles = 0;
for (let i = 0; i < 200; i++) {
  if (i % 20 === 0) await cycle(stdio(BUN, [CHAOS_SERVER, "--crash=before-handshake"]));
  else if (i % 20 === 10) await cycle(stdio(BUN, [CHAOS_SERVER, "--hang=initialize"]), 100);
  else await cycle(kinds[i % 2]!());
  cycles++;
}
await http.stop();
// Closed sockets and reaped pipes are released by the event loop, not at once: wait for that, and
// report what is left if it never comes (the test then names it).
await waitFor(() => openFds() <= fdsBefore && children().length === 0, "fds and children released", { timeoutMs: 10_000 }).catch(() => {});
console.log(`CYCLES ${JSON.stringify({ fdsBefore, fdsAfter: openFds(), children: children(), cycles })}`);
