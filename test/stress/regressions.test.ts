/** Bugs the fault matrix found, pinned at the unit where they lived. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BUN, ECHO_SERVER, REPO } from "../helpers/paths.ts";

describe("StdioTransport close", () => {
  test("a process that closed its last stdio server exits at once, not after the close grace period", async () => {
    // A grace period far longer than the bound below: a timer left from it would keep the process
    // alive that long, so the bound only catches that leftover, never a slow machine.
    const graceMs = 60_000;
    const script = `
      import { StdioTransport } from ${JSON.stringify(join(REPO, "src/mcp/transport/stdio-transport.ts"))};
      import { JsonRpcConnection } from ${JSON.stringify(join(REPO, "src/mcp/rpc/json-rpc-connection.ts"))};
      const t = new StdioTransport({ command: ${JSON.stringify(ECHO_SERVER)}, args: [], env: process.env }, { closeGraceMs: ${graceMs} });
      await t.start();
      await new JsonRpcConnection(t).request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } });
      await t.close();
      console.log("closed");`;
    const child = Bun.spawn([BUN, "-e", script], { stdout: "pipe", stderr: "inherit" });
    const killer = setTimeout(() => child.kill("SIGKILL"), graceMs / 3);
    const stdout = await new Response(child.stdout).text();
    const code = await child.exited;
    clearTimeout(killer);
    expect(stdout).toBe("closed\n");
    // The echo server exits as soon as its stdin closes, so nothing is left to wait for.
    expect([code, child.signalCode]).toEqual([0, null]);
  });
});
