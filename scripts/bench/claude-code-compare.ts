/**
 * Benchmark 11's optional part: Claude Code on the same servers, pointed at the same Messages
 * stand-in (`ANTHROPIC_BASE_URL`), `-p hi`: what its first request carries, when it leaves, and
 * Claude Code's peak RSS then. Claude Code is never downloaded here: it is used only when it was
 * installed by hand outside the repo (`npm install --prefix /tmp/claude-code @anthropic-ai/claude-code`,
 * or `CLAUDE_CODE_PREFIX`); otherwise the part is skipped with a line that says so.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { arch, platform } from "node:os";
import { join } from "node:path";
import { reply, startMessagesStandIn, text, type RecordedRequest } from "../../fixtures/anthropic/messages-stand-in.ts";
import { ROOT } from "./paths.ts";

const PREFIX = process.env.CLAUDE_CODE_PREFIX ?? "/tmp/claude-code";
/** A run that takes longer than this is ended: Claude Code waiting for something that never comes. */
const RUN_LIMIT_MS = 120_000;

/** What one `claude -p hi` sent first, and when. */
export interface ClaudeCodeRequest {
  /** From spawn until the first request reached the stand-in. */
  ms: number;
  /** Claude Code's peak resident set (VmHWM) when the first request arrived. */
  peakRss: number;
  tools: number;
  toolBytes: number;
  /** How many of the servers' tools the first request names anywhere (tools, system prompt, messages). */
  mcpToolsNamed: number;
  /** Tools sent with `defer_loading` (the API's own tool search). */
  deferLoading: number;
  /** Whether its tools include a tool search of its own. */
  searchTool: string | undefined;
}

export interface ClaudeCode {
  binary: string;
  version: string;
}

/**
 * The Claude Code found under PREFIX, or why there is none. The npm package's postinstall copies the
 * platform's native binary over a placeholder; npm may have skipped install scripts, so the
 * platform package's binary is looked for first.
 */
export function findClaudeCode(): ClaudeCode | { missing: string } {
  const candidates = [
    join(PREFIX, "node_modules", "@anthropic-ai", `claude-code-${platform()}-${arch()}`, "claude"),
    join(PREFIX, "node_modules", ".bin", "claude"),
  ];
  for (const binary of candidates.filter((path) => existsSync(path))) {
    const result = Bun.spawnSync([binary, "--version"], { stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "" } });
    if (result.exitCode === 0) return { binary, version: result.stdout.toString().trim().replace(/\s*\(Claude Code\)$/, "") };
  }
  return { missing: `Claude Code was not compared: it is not installed under ${PREFIX} (\`npm install --prefix ${PREFIX} @anthropic-ai/claude-code\`, outside the repo; the bench never downloads it)` };
}

/**
 * One `claude -p hi --mcp-config <config>` in a fresh HOME, against a stand-in that answers "ok".
 * `env`: ENABLE_TOOL_SEARCH and the like. Nothing reaches the network: the model is the stand-in,
 * and non-essential traffic (updates, telemetry) is turned off.
 */
export async function claudeCodeFirstRequest(claude: ClaudeCode, config: string, env: Record<string, string>): Promise<ClaudeCodeRequest> {
  const home = join(ROOT, "dist", "bench", "claude-code-home");
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  let pid = 0;
  let peakRss = Number.NaN;
  let arrived = Number.NaN;
  const started = performance.now();
  const standIn = startMessagesStandIn(
    Array.from({ length: 10 }, () => () => {
      if (Number.isNaN(arrived)) {
        arrived = performance.now() - started;
        peakRss = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN) * 1024;
      }
      return reply(text("ok"));
    }),
  );
  try {
    const child = Bun.spawn([claude.binary, "-p", "hi", "--mcp-config", config], {
      cwd: home,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        ANTHROPIC_API_KEY: "sk-bench",
        ANTHROPIC_BASE_URL: standIn.url,
        DISABLE_AUTOUPDATER: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        ...env,
      },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    pid = child.pid;
    const limit = setTimeout(() => child.kill(), RUN_LIMIT_MS);
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    clearTimeout(limit);
    const first = standIn.requests[0];
    if (!first) throw new Error(`Claude Code sent no request (exit ${code}): ${(stderr || stdout).slice(-400)}`);
    return { ms: arrived, peakRss, ...whatItCarries(first) };
  } finally {
    await standIn.stop();
  }
}

/** How many distinct servers' tools (`mcp__<server>__<tool>`) a request names anywhere: tools, system prompt, messages. */
function serverToolsNamed(request: RecordedRequest): number {
  return new Set(JSON.stringify(request.body).match(/mcp__[A-Za-z0-9_-]+__[A-Za-z0-9_-]+/g) ?? []).size;
}

function whatItCarries(request: RecordedRequest): Omit<ClaudeCodeRequest, "ms" | "peakRss"> {
  const tools = (request.body.tools ?? []) as Array<{ name?: string; type?: string; defer_loading?: boolean }>;
  return {
    tools: tools.length,
    toolBytes: JSON.stringify(tools).length,
    mcpToolsNamed: serverToolsNamed(request),
    deferLoading: tools.filter((tool) => tool.defer_loading).length,
    searchTool: tools.find((tool) => /tool_?search/i.test(tool.name ?? tool.type ?? ""))?.name,
  };
}
