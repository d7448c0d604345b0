/**
 * Benchmark 6: a whole `cat-code mcp call` from a cold process (the compiled binary), against the
 * same call made by a small script on the SDK client under Node, by `mcp-inspector --cli` when it
 * is installed, and by a bare driver inside the (warm) bench process that only starts the server,
 * speaks the three requests and waits for its exit: cat-code's overhead is its time minus that.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BENCH_FIXTURES, ROOT } from "./paths.ts";
import { benchBinary, cleanEnv, timedRun } from "./processes.ts";
import type { Section } from "./report.ts";
import { formatMs, median, verdict } from "./stats.ts";

/** Where `bun run bench` looks for the Inspector: `npm install --prefix dist/bench/inspector @modelcontextprotocol/inspector`. */
export const INSPECTOR = join(ROOT, "dist", "bench", "inspector", "node_modules", ".bin", "mcp-inspector");

interface Target {
  name: string;
  command: string[];
  tool: string;
  args: Record<string, string>;
  expect: string;
}

const TARGETS: Target[] = [
  { name: "`fixtures/echo-server.sh` (bash)", command: ["./fixtures/echo-server.sh"], tool: "echo", args: { text: "hi" }, expect: "hi" },
  {
    name: "`@modelcontextprotocol/server-everything` (Node)",
    command: ["node", "node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
    tool: "echo",
    args: { message: "hi" },
    expect: "Echo: hi",
  },
];

/**
 * The floor: spawn the server, `initialize`, `notifications/initialized` + `tools/list`, `tools/call`,
 * close its stdin and wait for it to exit, with nothing else in the way.
 */
async function bareRun(target: Target): Promise<number> {
  const started = performance.now();
  const child = Bun.spawn(target.command, { cwd: ROOT, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const answer = async (id: number): Promise<string> => {
    for (;;) {
      for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.includes(`"id":${id}`)) return line;
      }
      const { done, value } = await reader.read();
      if (done) throw new Error(`${target.command.join(" ")} closed stdout before answering request ${id}`);
      buffered += decoder.decode(value, { stream: true });
    }
  };
  const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  send({ id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bare", version: "1" } } });
  await child.stdin.flush();
  await answer(0);
  send({ method: "notifications/initialized" });
  send({ id: 1, method: "tools/list", params: {} });
  await child.stdin.flush();
  await answer(1);
  send({ id: 2, method: "tools/call", params: { name: target.tool, arguments: target.args } });
  await child.stdin.flush();
  const line = await answer(2);
  if (!line.includes(target.expect)) throw new Error(`unexpected answer: ${line.slice(0, 200)}`);
  child.stdin.end();
  reader.releaseLock();
  await child.exited;
  return performance.now() - started;
}

export async function coldStart(options: { rounds: number; log: (line: string) => void }): Promise<{ section: Section; headline: string }> {
  const binary = await benchBinary();
  const env = cleanEnv();
  const inspector = existsSync(INSPECTOR);
  const checked = async (label: string, argv: string[], expect: string) => {
    const run = await timedRun(argv, { env });
    if (run.exitCode !== 0 || !run.stdout.includes(expect)) {
      throw new Error(`${label}: exit ${run.exitCode}; stdout ${run.stdout.slice(0, 200)}; stderr ${run.stderr.slice(0, 400)}`);
    }
    return run.ms;
  };
  type Row = { bare: number[]; catCode: number[]; sdk: number[]; inspector: number[] };
  const rows = new Map<string, Row>(TARGETS.map((t) => [t.name, { bare: [], catCode: [], sdk: [], inspector: [] }]));
  const version: number[] = [];
  for (let round = -1; round < options.rounds; round++) {
    const v = await checked("cat-code --version", [binary, "--version"], "cat-code");
    if (round >= 0) version.push(v);
    for (const target of TARGETS) {
      const json = JSON.stringify(target.args);
      const steps: [keyof Row, () => Promise<number>][] = [
        ["bare", () => bareRun(target)],
        ["catCode", () => checked("cat-code mcp call", [binary, "mcp", "call", "--stdio", target.command.join(" "), target.tool, "--json", json], target.expect)],
        ["sdk", () => checked("SDK script", ["node", join(BENCH_FIXTURES, "sdk-call.mjs"), target.tool, json, ...target.command], target.expect)],
      ];
      if (inspector) {
        const toolArgs = Object.entries(target.args).map(([k, v]) => `${k}=${v}`);
        steps.push(["inspector", () => checked("mcp-inspector --cli", [INSPECTOR, "--cli", ...target.command, "--method", "tools/call", "--tool-name", target.tool, "--tool-arg", ...toolArgs], target.expect)]);
      }
      const shift = ((round % steps.length) + steps.length) % steps.length;
      for (const [key, step] of [...steps.slice(shift), ...steps.slice(0, shift)]) {
        const ms = await step();
        if (round < 0) continue;
        rows.get(target.name)![key].push(ms);
        options.log(`  round ${round + 1}: ${target.name} ${key}: ${formatMs(ms)}`);
      }
    }
  }

  const table = [["server", "bare server (floor)", "`cat-code mcp call`", "cat-code overhead", "SDK script (Node)", "cat-code ÷ SDK time", "`mcp-inspector --cli`"]];
  const verdicts: string[] = [`\`cat-code --version\`: ${formatMs(median(version))}`];
  const headlines: string[] = [];
  for (const target of TARGETS) {
    const row = rows.get(target.name)!;
    const overhead = median(row.catCode) - median(row.bare);
    const share = median(row.catCode) / median(row.sdk);
    table.push([
      target.name,
      formatMs(median(row.bare)),
      formatMs(median(row.catCode)),
      formatMs(overhead),
      formatMs(median(row.sdk)),
      `${share.toFixed(2)}`,
      inspector ? formatMs(median(row.inspector)) : "not installed",
    ]);
    verdicts.push(
      `${target.name}: overhead at most 50 ms: ${formatMs(overhead)} ${verdict(overhead <= 50)}; at most half the SDK script's time: ${share.toFixed(2)} of it ${verdict(share <= 0.5)}` +
        (median(row.bare) / median(row.sdk) > 0.5 ? ` (the bare server alone takes ${(median(row.bare) / median(row.sdk)).toFixed(2)} of the SDK script's time: no client can reach half)` : ""),
    );
    headlines.push(`${target.name.split(" ")[0]} ${formatMs(median(row.catCode))} (${overhead < 0 ? "−" : "+"}${formatMs(Math.abs(overhead))} over the bare server, ${share.toFixed(2)} of the SDK script)`);
  }
  return {
    section: {
      title: "6. Cold start of the compiled binary",
      method:
        "Wall time from spawn to exit, median of " +
        `${options.rounds} rounds after a warm-up round, the contenders rotating. \`cat-code mcp call --stdio '<server>' echo --json …\` ` +
        "connects, lists the tools, calls `echo`, prints the text and closes the server. The SDK script " +
        "(`fixtures/bench/sdk-call.mjs`, run by `node`) does the same on `Client` + `StdioClientTransport`. The bare server is " +
        "the floor: the (warm) bench process spawns the server, sends the same three requests by hand and waits for the server " +
        "to exit after its stdin closes; cat-code's overhead is its time minus that. Both servers exit when their stdin " +
        "closes, so any fixed wait at shutdown would show up in the overhead. " +
        (inspector
          ? "`@modelcontextprotocol/inspector` (2.x, which asks for Node ≥ 22.19; it ran on this Node) is installed outside the project with `npm install --prefix dist/bench/inspector @modelcontextprotocol/inspector` and is not a devDependency: its tree (Vite, React, Ink) is large for one row of a table."
          : "`mcp-inspector --cli` is not installed here (`npm install --prefix dist/bench/inspector @modelcontextprotocol/inspector` adds the column)."),
      table,
      verdicts,
    },
    headline: `Cold start (compiled): \`--version\` ${formatMs(median(version))}; mcp call: ${headlines.join("; ")}`,
  };
}
