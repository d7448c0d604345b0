import { afterEach, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WarmConnections } from "../../../src/keeper/warm-connections.ts";
import { EraMemory } from "../../../src/mcp/client/era-memory.ts";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { createTransport } from "../../../src/mcp/transport/create-transport.ts";
import { BUN, REPO, SDK_V2_SERVER, tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { stdioServer } from "../../helpers/keeper-test-client.ts";

/**
 * Issue 26 in the keeper: a dual-era server that always takes longer than the probe's window to
 * start (the SDK v2 fixture, held until a file exists) answers the probe late; that answer is
 * remembered, the warm connection keeps serving in the era it was opened in, and the server's next
 * connection waits for the probe and speaks 2026-07-28.
 */
const opened: WarmConnections[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((warm) => warm.closeAll()));
});

const listener = () => ({ socket: {}, onLog: () => {} });

test("a slow dual-era server held warm is remembered as 2026-07-28 from its late answer; its next connection speaks it", async () => {
  const ready = join(tempDir(), "ready");
  const server = stdioServer("slow", BUN, [SDK_V2_SERVER, "--stdio", "--starts-when", ready]);
  const eraMemory = new EraMemory({ env: { CAT_CODE_HOME: tempDir() } });
  /** Each message the keeper sent the server, by method; the server starts when `startWhen` says so. */
  const sent: string[] = [];
  let startWhen = (_method: string) => false;
  const warm = new WarmConnections({
    version: "test",
    env: {},
    eraMemory,
    createTransport: (config, context) => {
      const transport = createTransport(config, context);
      const send = transport.send.bind(transport);
      transport.send = (message, options) => {
        const method = "method" in message ? message.method : "(answer)";
        sent.push(method);
        if (startWhen(method)) writeFileSync(ready, "");
        return send(message, options);
      };
      return transport;
    },
  });
  opened.push(warm);

  // First contact: the server starts only after the probe's window passed (the probe was given up).
  startWhen = (method) => method === "notifications/cancelled";
  const [first] = await warm.connect([server], [REPO], listener());
  expect(first!.status).toMatchObject({ state: "connected", era: "legacy", protocolVersion: "2025-11-25" });
  expect(sent.slice(0, 3)).toEqual(["server/discover", "notifications/cancelled", "initialize"]);
  const { config } = server.entry as Extract<ServerEntry, { ok: true }>;
  await waitFor(() => eraMemory.recall(config)?.era === "modern", "the late answer remembered");

  // The warm connection keeps its era and serves the next command.
  const [again] = await warm.connect([server], [REPO], listener());
  expect(again!.fingerprint).toBe(first!.fingerprint);
  expect(again!.status).toMatchObject({ state: "connected", era: "legacy" });
  const signal = new AbortController().signal;
  const echoed = await warm.call(first!.fingerprint, "echo", { text: "warm" }, { ...listener(), signal, elicitation: async () => ({ action: "decline" }), onProgress: () => {} });
  expect(echoed.content).toEqual([{ type: "text", text: "warm" }]);

  // Its next connection (here after `mcp keeper stop slow`) starts as slowly, and waits for the probe.
  expect(warm.closeServer("slow")).toBe(1);
  rmSync(ready);
  sent.length = 0;
  startWhen = (method) => method === "server/discover";
  const [next] = await warm.connect([server], [REPO], listener());
  expect(next!.status).toMatchObject({ state: "connected", era: "modern", protocolVersion: "2026-07-28" });
  expect(sent).not.toContain("initialize");
}, 30_000);
