/**
 * Benchmark 11: MCP at scale. 50 stdio servers of 20 tools plus one of 1,000
 * (`fixtures/bench/many-tools-server.ts`, generated tools of ~250 tokens each): the REPL's time to
 * prompt, the time until every tool is registered and the first request leaves (print mode waits for
 * every server), cat-code's peak RSS then, the bytes and tokens of the first request's tools with
 * tool search (the default `auto`) and without (`ENABLE_TOOL_SEARCH=never`), and the time of a search.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startMessagesStandIn, reply, text, type RecordedRequest } from "../../fixtures/anthropic/messages-stand-in.ts";
import { generatedTools } from "../../fixtures/bench/many-tools-server.ts";
import { CHARS_PER_TOKEN, RequestTools } from "../../src/agent/request-tools.ts";
import { ToolRegistry } from "../../src/agent/tool-registry.ts";
import type { Tool } from "../../src/agent/tool.ts";
import { findTools } from "../../src/agent/tools/tool-search-tool.ts";
import { BENCH_FIXTURES, BUN } from "./paths.ts";
import { benchBinary, cleanEnv } from "./processes.ts";
import { claudeCodeFirstRequest, findClaudeCode, type ClaudeCodeRequest } from "./claude-code-compare.ts";
import type { Section } from "./report.ts";
import { timeToPrompt, writeConfig } from "./repl-start.ts";
import { formatMiB, formatMs, formatNumber, max, median, verdict } from "./stats.ts";

const MANY_TOOLS = join(BENCH_FIXTURES, "many-tools-server.ts");
const SMALL_SERVERS = 50;
const SMALL_TOOLS = 20;
const BIG_TOOLS = 1_000;
/** Claude Code's settings compared, each a column: tool search forced on, its `auto`, and none set. */
const CLAUDE_CODE_SETTINGS: Array<{ label: string; env: Record<string, string> }> = [
  { label: "`ENABLE_TOOL_SEARCH=true`", env: { ENABLE_TOOL_SEARCH: "true" } },
  { label: "`ENABLE_TOOL_SEARCH=auto`", env: { ENABLE_TOOL_SEARCH: "auto" } },
  { label: "variable unset", env: {} },
];
const QUERIES = ["create issue", "export report", "big: archive dataset", "mcp__s7__list_page_s7_13", "rotate the credentials"];

interface FirstRequest {
  /** From spawn until the first request reached the stand-in: every server connected and registered. */
  ms: number;
  /** cat-code's peak resident set (VmHWM) when the first request arrived. */
  peakRss: number;
  toolBytes: number;
  tools: number;
  /** Servers' tools the model can name: those sent, and those in the deferred names list. */
  serverTools: number;
}

function servers(): Record<string, unknown> {
  const entries: Record<string, unknown> = { big: { command: BUN, args: [MANY_TOOLS, `--tools=${BIG_TOOLS}`, "--seed=big"] } };
  for (let i = 0; i < SMALL_SERVERS; i++) entries[`s${i}`] = { command: BUN, args: [MANY_TOOLS, `--tools=${SMALL_TOOLS}`, `--seed=s${i}`] };
  return entries;
}

/** The deferred names list, when the first request has one: the system prompt's last block. */
function namesList(request: RecordedRequest): string {
  const system = (request.body.system ?? []) as { text: string }[];
  return system.length > 1 ? system.at(-1)!.text : "";
}

/** What the first request spends on tools: the definitions, plus the deferred names list when there is one. */
function toolBytes(request: RecordedRequest): number {
  return JSON.stringify(request.body.tools ?? []).length + namesList(request).length;
}

/** The servers' tools sent, plus those the names list names (one line a server: `server (prefix…): name name …`). */
function serverTools(request: RecordedRequest): number {
  const sent = (request.body.tools ?? []).filter((tool) => tool.name.startsWith("mcp__")).length;
  const listed = namesList(request).split("\n").slice(1).reduce((sum, line) => sum + (line.split(": ")[1]?.split(" ").length ?? 0), 0);
  return sent + listed;
}

async function firstRequest(binary: string, config: string, toolSearch: string): Promise<FirstRequest> {
  let pid = 0;
  let peakRss = Number.NaN;
  const standIn = startMessagesStandIn([
    () => {
      // Read while cat-code waits for the answer: its high-water mark so far.
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      peakRss = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
      return reply(text("ok"));
    },
  ]);
  try {
    const started = performance.now();
    let arrived = Number.NaN;
    const child = Bun.spawn([binary, "-p", "hello", "--mcp-config", config], {
      env: cleanEnv({ ANTHROPIC_API_KEY: "sk-bench", ANTHROPIC_BASE_URL: standIn.url, ENABLE_TOOL_SEARCH: toolSearch }),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    pid = child.pid;
    const timer = setInterval(() => {
      if (Number.isNaN(arrived) && standIn.requests.length > 0) arrived = performance.now() - started;
    }, 1);
    const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    clearInterval(timer);
    if (code !== 0 || standIn.requests.length === 0) throw new Error(`cat-code -p exited ${code}: ${stderr.slice(-400)}`);
    const request = standIn.requests[0]!;
    return { ms: arrived, peakRss, toolBytes: toolBytes(request), tools: request.body.tools?.length ?? 0, serverTools: serverTools(request) };
  } finally {
    await standIn.stop();
  }
}

function generatedRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  const add = (server: string, n: number) => {
    for (const definition of generatedTools(n, server)) {
      const tool: Tool = {
        name: `mcp__${server}__${definition.name}`,
        description: definition.description,
        inputSchema: definition.inputSchema,
        isReadOnly: false,
        deferrable: true,
        origin: { server, namePrefix: `mcp__${server}__` },
        execute: async () => ({ content: "", isError: false }),
      };
      registry.register(tool);
    }
  };
  add("big", BIG_TOOLS);
  for (let i = 0; i < SMALL_SERVERS; i++) add(`s${i}`, SMALL_TOOLS);
  return registry;
}

/** The tool search over the same 2,000 tools, in this process: the median of many runs of each query. */
function searchTimes(): { indexMs: number; searchMs: number } {
  const started = performance.now();
  const tools = new RequestTools(generatedRegistry(), { kind: "always" });
  const indexMs = performance.now() - started;
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    for (const query of QUERIES) {
      const t = performance.now();
      findTools(tools.index, query, 5);
      times.push(performance.now() - t);
    }
  }
  return { indexMs, searchMs: median(times) };
}

export async function toolSearchScale(options: { rounds: number; log: (line: string) => void }): Promise<{ section: Section; headline: string }> {
  const title = `11. MCP at scale: ${SMALL_SERVERS} servers × ${SMALL_TOOLS} tools plus one of ${BIG_TOOLS.toLocaleString("en-US")}`;
  const binary = await benchBinary();
  const config = writeConfig("tool-search.mcp.json", servers());
  const claude = findClaudeCode();
  const prompt: number[] = [];
  const runs: Record<"auto" | "never", FirstRequest[]> = { auto: [], never: [] };
  const claudeRuns = CLAUDE_CODE_SETTINGS.map(() => [] as ClaudeCodeRequest[]);
  for (let round = -1; round < options.rounds; round++) {
    const ms = await timeToPrompt(binary, config);
    // Alternating which goes first: the one right after the REPL shares the machine with its servers' exit.
    const [auto, never] =
      round % 2
        ? [await firstRequest(binary, config, "auto"), await firstRequest(binary, config, "never")]
        : ([await firstRequest(binary, config, "never"), await firstRequest(binary, config, "auto")].reverse() as [FirstRequest, FirstRequest]);
    const claudeRound: ClaudeCodeRequest[] = [];
    if ("binary" in claude) for (const { env } of CLAUDE_CODE_SETTINGS) claudeRound.push(await claudeCodeFirstRequest(claude, config, env));
    if (round < 0) continue;
    prompt.push(ms);
    runs.auto.push(auto);
    runs.never.push(never);
    claudeRound.forEach((run, i) => claudeRuns[i]!.push(run));
    const others = claudeRound.length ? `; Claude Code first request ${claudeRound.map((r) => formatMs(r.ms)).join(" / ")}, RSS ${claudeRound.map((r) => formatMiB(r.peakRss)).join(" / ")}` : "";
    options.log(`  round ${round + 1}: prompt ${formatMs(ms)}; registered ${formatMs(auto.ms)} / ${formatMs(never.ms)}; RSS ${formatMiB(auto.peakRss)} / ${formatMiB(never.peakRss)}${others}`);
  }
  const { indexMs, searchMs } = searchTimes();
  const bytes = { auto: runs.auto[0]!.toolBytes, never: runs.never[0]!.toolBytes };
  const cut = 1 - bytes.auto / bytes.never;
  const tokens = (n: number) => formatNumber(Math.ceil(n / CHARS_PER_TOKEN));
  const compared = "binary" in claude && claudeRuns[0]!.length > 0;
  // Claude Code's columns, one per setting, when it was run.
  const cc = (row: (run: ClaudeCodeRequest[]) => string): string[] => (compared ? claudeRuns.map(row) : []);
  return {
    section: {
      title,
      method:
        `${SMALL_SERVERS} stdio servers of ${SMALL_TOOLS} tools and one of ${BIG_TOOLS.toLocaleString("en-US")} (\`fixtures/bench/many-tools-server.ts\`: generated tools, ` +
        "~1 KB of definition each, as popular servers' are), 2,000 tools in all, started by the compiled binary. Time to prompt: the REPL in a " +
        "pseudo-terminal (as benchmark 7). Registered: `cat-code -p hello` (print mode waits for every server) from spawn until the first request " +
        "reaches the Messages stand-in; peak RSS is cat-code's VmHWM read then. First-request tools: the `tools` array as sent, plus the deferred " +
        "names list in the system prompt; tokens are characters / 4 (an estimate: no real count_tokens here). Search: `findTools` over the same " +
        `2,000 tools in the bench process, the median of 200 runs of ${QUERIES.length} queries. ${options.rounds} round${options.rounds === 1 ? "" : "s"} after a warm-up.` +
        (compared
          ? ` Claude Code (${claude.version}, installed by hand under /tmp/claude-code, never by the bench): \`claude -p hi --mcp-config\` with the same servers, ANTHROPIC_BASE_URL at the same stand-in, a fresh HOME, non-essential traffic off; from spawn until its first request, its VmHWM then, and what that request carries.`
          : ""),
      table: [
        ["", "cat-code: tool search (`auto`, default)", "cat-code: no tool search (`never`)", ...(compared ? CLAUDE_CODE_SETTINGS.map(({ label }) => `Claude Code: ${label}`) : [])],
        ["REPL time to prompt (median, slowest)", `${formatMs(median(prompt))}, ${formatMs(max(prompt))}`, "(same: the prompt does not wait for servers)", ...cc(() => "—")],
        [
          "first request sent (median; cat-code: all tools registered)",
          formatMs(median(runs.auto.map((r) => r.ms))),
          formatMs(median(runs.never.map((r) => r.ms))),
          ...cc((r) => formatMs(median(r.map((x) => x.ms)))),
        ],
        ["peak RSS then (median)", formatMiB(median(runs.auto.map((r) => r.peakRss))), formatMiB(median(runs.never.map((r) => r.peakRss))), ...cc((r) => formatMiB(median(r.map((x) => x.peakRss))))],
        ["first request: tools sent", formatNumber(runs.auto[0]!.tools), formatNumber(runs.never[0]!.tools), ...cc((r) => spread(r.map((x) => x.tools)))],
        ["first request: bytes of tools (and names list)", formatNumber(bytes.auto), formatNumber(bytes.never), ...cc((r) => spread(r.map((x) => x.toolBytes)))],
        ["first request: tokens of tools, estimated", tokens(bytes.auto), tokens(bytes.never), ...cc((r) => spread(r.map((x) => Math.ceil(x.toolBytes / CHARS_PER_TOKEN))))],
        ["first request: servers' tools it names (of 2,000)", formatNumber(runs.auto[0]!.serverTools), formatNumber(runs.never[0]!.serverTools), ...cc((r) => spread(r.map((x) => x.mcpToolsNamed)))],
        ["indexing 2,000 tools (in process)", formatMs(indexMs), "—", ...cc(() => "—")],
        ["one search (median)", formatMs(searchMs), "—", ...cc(() => "—")],
      ],
      verdicts: [`${verdict(cut >= 0.9)}: deferral cuts the first request's tool bytes and tokens by ≥ 90% (${(cut * 100).toFixed(1)}%)`],
      notes: [
        "binary" in claude ? claudeNote(claudeRuns) : claude.missing,
        "The servers' own start-up (51 Bun processes) dominates the time until every tool is registered; cat-code's part (registration and indexing) is the in-process line.",
      ],
    },
    headline: `MCP at scale (2,000 tools, 51 servers): tool search cuts the first request's tool bytes by ${(cut * 100).toFixed(1)}%; a search takes ${formatMs(searchMs)}`,
  };
}

/** One number when every round gave it, else the lowest and highest (Claude Code's first request varies with what has connected). */
function spread(values: number[]): string {
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return low === high ? formatNumber(low) : `${formatNumber(low)}–${formatNumber(high)}`;
}

function claudeNote(runs: ClaudeCodeRequest[][]): string {
  const search = runs.flat().find((run) => run.searchTool);
  const deferred = runs.flat().some((run) => run.deferLoading > 0);
  return (
    "Claude Code does not wait for every server before its first request in print mode: what that request names depends on how many had connected by then (hence the ranges). " +
    `With its tool search on, its search tool is ${search?.searchTool ? `\`${search.searchTool}\`` : "absent"}, ` +
    `and ${deferred ? "some tools carry the API's `defer_loading`" : "no tool carries the API's `defer_loading`: the search is its own, client side, as cat-code's"}.`
  );
}
