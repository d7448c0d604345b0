/** Bugs the fault matrix found, pinned at the unit where they lived. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BUN, ECHO_SERVER, REPO } from "../helpers/paths.ts";

describe("StdioTransport close", () => {
  test("a process that closed its last stdio server exits at once, not after the close grace period", async () => {
    const script = `
      import { StdioTransport } from ${JSON.stringify(join(REPO, "src/mcp/transport/stdio-transport.ts"))};
      const t = new StdioTransport({ command: ${JSON.stringify(ECHO_SERVER)}, args: [], env: process.env });
      await t.start();
      await t.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } });
      await t.close();
      console.log("closed");`;
    const child = Bun.spawn([BUN, "-e", script], { stdout: "pipe", stderr: "inherit" });
    let closedAt = 0;
    for await (const chunk of child.stdout) if (new TextDecoder().decode(chunk).includes("closed")) closedAt = performance.now();
    await child.exited;
    expect(closedAt).toBeGreaterThan(0);
    // The grace period is 2 s; the echo server exits as soon as its stdin closes.
    expect(performance.now() - closedAt).toBeLessThan(1000);
  });
});
