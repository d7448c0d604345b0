/**
 * Benchmark 10: servers that come and go. The REPL's prompt must be on the terminal in under 100 ms
 * while four servers connect in the background (one with a 5 s handshake), and each fast server's
 * tools must be usable as soon as that server is ready, not when the slowest one is.
 */
import { ToolRegistry } from "../../src/agent/tool-registry.ts";
import type { ServerEntry } from "../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../src/mcp/pool/server-pool.ts";
import { BUN, ECHO_SERVER } from "./paths.ts";
import { benchBinary } from "./processes.ts";
import { timeToPrompt, writeConfig } from "./repl-start.ts";
import type { Section } from "./report.ts";
import { formatMs, max, median, verdict } from "./stats.ts";

const HANDSHAKE_MS = 5000;
const FAST_SERVERS = 3;

const servers = (): Record<string, { command: string; args: string[] }> => ({
  slow: { command: BUN, args: [ECHO_SERVER, `--init-delay-ms=${HANDSHAKE_MS}`] },
  ...Object.fromEntries(Array.from({ length: FAST_SERVERS }, (_, i) => [`fast${i + 1}`, { command: BUN, args: [ECHO_SERVER] }])),
});

/** In process: from connectAll until every fast server's tools are in the registry; the slow one must still be connecting. */
async function timeToFastTools(): Promise<number> {
  const entries: ServerEntry[] = Object.entries(servers()).map(([name, config]) => ({ name, scope: "user", source: "bench", ok: true, config: { type: "stdio", env: {}, ...config } }));
  const pool = new ServerPool(entries);
  const registry = new ToolRegistry();
  pool.registerInto(registry);
  const started = performance.now();
  let ms = Number.NaN;
  const allFast = new Promise<void>((resolve) => {
    pool.on("server", () => {
      const ready = Array.from({ length: FAST_SERVERS }, (_, i) => registry.has(`mcp__fast${i + 1}__echo`)).every(Boolean);
      if (ready && Number.isNaN(ms)) {
        ms = performance.now() - started;
        resolve();
      }
    });
  });
  void pool.connectAll();
  try {
    await Promise.race([allFast, Bun.sleep(HANDSHAKE_MS + 5000)]);
    if (Number.isNaN(ms)) throw new Error("the fast servers' tools never joined the registry");
    if (pool.status().find((status) => status.name === "slow")?.state !== "pending") throw new Error("the slow server was not connecting any more: the measure means nothing");
    return ms;
  } finally {
    await pool.closeAll();
  }
}

export async function serversBackground(options: { rounds: number; log: (line: string) => void }): Promise<{ section: Section; headline: string }> {
  const title = "10. REPL prompt and tools while servers connect";
  const binary = await benchBinary();
  const config = writeConfig("repl-background.mcp.json", servers());
  // The same REPL with no server, measured in the same rounds: on a busy machine, what the servers add.
  const none = writeConfig("repl-none.mcp.json", {});
  const prompt: number[] = [];
  const reference: number[] = [];
  const tools: number[] = [];
  for (let round = -1; round < options.rounds; round++) {
    const promptMs = await timeToPrompt(binary, config);
    const referenceMs = await timeToPrompt(binary, none);
    const toolsMs = await timeToFastTools();
    if (round < 0) continue;
    prompt.push(promptMs);
    reference.push(referenceMs);
    tools.push(toolsMs);
    options.log(`  round ${round + 1}: prompt ${formatMs(promptMs)} (no servers: ${formatMs(referenceMs)}), fast servers' tools ${formatMs(toolsMs)}`);
  }
  const promptMedian = median(prompt);
  return {
    section: {
      title,
      method:
        `Four stdio servers (\`fixtures/bench/echo-server.ts\`): one whose handshake takes ${HANDSHAKE_MS / 1000} s and ${FAST_SERVERS} fast ones. ` +
        "Time to prompt: spawning the compiled binary's REPL (`cat-code --mcp-config <file>`) in a pseudo-terminal (`script -qfc`) until `> ` is drawn. " +
        "Fast tools: in process, from `connectAll` on a pool that registers into a registry first (as the REPL's session does) until every fast " +
        `server's tools are in the registry, the slow one still connecting. ${options.rounds} rounds after a warm-up.`,
      table: [
        ["measure", "median", "slowest"],
        ["time to prompt (REPL, 4 servers connecting)", formatMs(promptMedian), formatMs(max(prompt))],
        ["time to prompt (REPL, no server: reference)", formatMs(median(reference)), formatMs(max(reference))],
        [`fast servers' tools registered (slow one: ${HANDSHAKE_MS / 1000} s)`, formatMs(median(tools)), formatMs(max(tools))],
      ],
      verdicts: [
        `prompt in under 100 ms with servers connecting: ${formatMs(promptMedian)} ${verdict(promptMedian < 100)}`,
        `servers connecting add little to the prompt: ${formatMs(promptMedian - median(reference))} over no server ${verdict(promptMedian - median(reference) < 20)}`,
        `fast tools long before the slow handshake ends: ${formatMs(median(tools))} ${verdict(median(tools) < HANDSHAKE_MS / 10)}`,
      ],
    },
    headline: `REPL: prompt in ${formatMs(promptMedian)} with 4 servers connecting; fast servers' tools in ${formatMs(median(tools))}`,
  };
}
