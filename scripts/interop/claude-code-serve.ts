#!/usr/bin/env bun
/**
 * Interop (outside `npm test`: Claude Code is a large download): Claude Code, configured with
 * `cat-code mcp serve` as a stdio MCP server and talking to the local Messages API stand-in,
 * calls a tool of an OAuth-protected server that speaks only 2026-07-28 — a server Claude Code
 * cannot reach by itself. Steps:
 *   1. builds cat-code (dist/interop/cat-code; CAT_CODE_BIN names another build to use instead);
 *   2. starts the OAuth fixture with --modern-only (an authorization server and the SDK v2 MCP
 *      server it protects, refusing every handshake-era request);
 *   3. signs cat-code in with `cat-code mcp login secure` (the browser replaced by the fetching
 *      stand-in the conformance runs use), in a fresh CAT_CODE_HOME;
 *   4. starts the Messages API stand-in, scripted to call `mcp__cat-code__secure__echo` once and
 *      then to repeat the tool's result;
 *   5. runs `claude -p` with `--mcp-config` naming `cat-code mcp serve`, `--strict-mcp-config`,
 *      HOME and CLAUDE_CONFIG_DIR in a temp dir, ANTHROPIC_BASE_URL at the stand-in;
 *   6. prints what Claude Code printed, what the model stand-in was sent back as the tool's result,
 *      and what the protected server received; exits 0 when the echo came back through.
 *
 * Claude Code: `npm install --prefix /tmp/claude-code @anthropic-ai/claude-code`, or name any
 * `claude` binary in CLAUDE_CODE_BIN. Run: `bun scripts/interop/claude-code-serve.ts`.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, resultText, startMessagesStandIn, text, toolResultsOf, toolUse, type RecordedRequest, type Reply } from "../../fixtures/anthropic/messages-stand-in.ts";
import { spawnAnnounced } from "../announced-process.ts";
import { buildBinary } from "../build.ts";
import { writeBrowserOpener } from "../conformance/browser-opener.ts";

const ROOT = join(import.meta.dir, "..", "..");
const CLAUDE = process.env.CLAUDE_CODE_BIN ?? "/tmp/claude-code/node_modules/.bin/claude";
const TOOL = "mcp__cat-code__secure__echo";
const WORDS = "hello from claude code through cat-code";

if (!existsSync(CLAUDE)) {
  console.error(`Claude Code is not installed at ${CLAUDE}.
Install it outside this project:  npm install --prefix /tmp/claude-code @anthropic-ai/claude-code
or name a claude binary:           CLAUDE_CODE_BIN=/path/to/claude bun scripts/interop/claude-code-serve.ts`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), "cat-code-interop-"));
const home = join(work, "cat-code-home");
const children: Array<{ kill(signal?: number | NodeJS.Signals): void }> = [];
const cleanUp = () => children.forEach((child) => child.kill("SIGTERM"));
process.on("exit", cleanUp);

function step(line: string): void {
  console.log(`\n== ${line}`);
}

step("building cat-code");
const catCode = process.env.CAT_CODE_BIN ?? (await buildBinary({ outfile: join(ROOT, "dist", "interop", "cat-code") }));

step("starting the OAuth-protected, 2026-07-28-only server");
const recordFile = join(work, "oauth-requests.jsonl");
const fixture = await spawnAnnounced([process.execPath, join(ROOT, "fixtures", "oauth", "oauth-server.ts"), "--port", "0", "--modern-only", "--record", recordFile], {
  stdin: "ignore",
  ready: /^LISTENING (\S+) (\S+)$/m,
  label: "the OAuth fixture",
});
children.push(fixture.child);
const mcpUrl = fixture.match[1] as string;
console.log(`protected MCP server: ${mcpUrl}`);

const config = join(work, "cat-code-mcp.json");
writeFileSync(config, JSON.stringify({ mcpServers: { secure: { type: "http", url: mcpUrl } } }, null, 2));
const env = { ...process.env, CAT_CODE_HOME: home } as Record<string, string>;

step("cat-code mcp list, before a sign-in");
console.log(await run([catCode, "mcp", "list", "--mcp-config", config], env));
step("cat-code mcp login secure");
console.log(await run([catCode, "mcp", "login", "--mcp-config", config, "secure"], { ...env, BROWSER: writeBrowserOpener(work) }));
step("cat-code mcp list, signed in");
console.log(await run([catCode, "mcp", "list", "--mcp-config", config], env));

step("starting the Messages API stand-in");
const answers = (request: RecordedRequest): Reply => {
  const results = toolResultsOf(request);
  if (results.length > 0) return reply(text(`The tool said: ${resultText(results[0])}`));
  const offered = (request.body.tools ?? []).map((tool) => tool.name);
  // Claude Code's side requests (titles, summaries) carry no tools: a plain answer does for them.
  if (!offered.includes(TOOL)) return reply(text(offered.length === 0 ? "ok" : `no ${TOOL} among: ${offered.join(", ")}`));
  return reply(toolUse(TOOL, { text: WORDS }));
};
const standIn = startMessagesStandIn(Array.from({ length: 40 }, () => answers), { apiKey: "sk-interop" });

step("claude -p, with cat-code mcp serve as its stdio MCP server");
const claudeHome = join(work, "claude-home");
const claudeConfig = join(work, "claude-mcp.json");
writeFileSync(claudeConfig, JSON.stringify({ mcpServers: { "cat-code": { command: catCode, args: ["mcp", "serve", "--mcp-config", config], env: { CAT_CODE_HOME: home } } } }, null, 2));
const claudeEnv: Record<string, string> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: claudeHome,
  CLAUDE_CONFIG_DIR: join(claudeHome, ".claude"),
  ANTHROPIC_BASE_URL: standIn.url,
  ANTHROPIC_API_KEY: "sk-interop",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_AUTOUPDATER: "1",
  DISABLE_TELEMETRY: "1",
  MCP_TIMEOUT: "60000",
};
const claudeArgs = [
  CLAUDE,
  "-p",
  `Call the ${TOOL} tool with the text "${WORDS}" and tell me what it answered.`,
  "--mcp-config",
  claudeConfig,
  "--strict-mcp-config",
  "--allowedTools",
  TOOL,
  "--output-format",
  "json",
  "--model",
  "claude-sonnet-4-5",
];
const claude = Bun.spawn(claudeArgs, { cwd: work, env: claudeEnv, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
children.push(claude);
const timer = setTimeout(() => claude.kill("SIGKILL"), 180_000);
const [out, err, code] = await Promise.all([new Response(claude.stdout).text(), new Response(claude.stderr).text(), claude.exited]);
clearTimeout(timer);
console.log(`claude exited ${code}\n-- stdout --\n${out.trim()}\n-- stderr --\n${err.trim()}`);

step("what happened");
const toolResults = standIn.requests.flatMap((request) => toolResultsOf(request).map((block) => resultText(block)));
const offeredTools = [...new Set(standIn.requests.flatMap((request) => (request.body.tools ?? []).map((tool) => tool.name)))].filter((name) => name.startsWith("mcp__"));
const upstream = existsSync(recordFile) ? readFileSync(recordFile, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line)) : [];
const calls = upstream.filter((entry) => entry.rpcMethod === "tools/call");
console.log(`requests to the Messages stand-in: ${standIn.requests.length}`);
console.log(`MCP tools Claude Code offered the model: ${offeredTools.join(", ") || "(none)"}`);
console.log(`tool results Claude Code sent back: ${JSON.stringify(toolResults)}`);
console.log(`requests the protected server recorded: ${upstream.length}; its /mcp methods: ${upstream.filter((entry) => entry.rpcMethod).map((entry) => `${entry.rpcMethod} ${entry.status} (token ${entry.token ?? "none"})`).join(", ")}`);
console.log(`tools/call answered 200 with a valid token: ${calls.filter((entry) => entry.status === 200 && entry.token === "valid").length}`);
await standIn.stop();
cleanUp();
const ok = toolResults.some((result) => result.includes(WORDS));
console.log(ok ? "\nINTEROP OK: Claude Code called a tool of an OAuth-protected 2026-07-28-only server through cat-code mcp serve" : "\nINTEROP FAILED");
process.exit(ok ? 0 : 1);

async function run(argv: string[], runEnv: Record<string, string>): Promise<string> {
  const child = Bun.spawn(argv, { env: runEnv, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return `$ ${argv.slice(1).join(" ")}  (exit ${exitCode})\n${stdout}${stderr}`.trim();
}
