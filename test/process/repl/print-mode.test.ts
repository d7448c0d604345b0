import { beforeEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  apiError,
  reply,
  resultText,
  text,
  toolResultsOf,
  toolUse,
  type MessagesStandIn,
  type Step,
} from "../../../fixtures/anthropic/messages-stand-in.ts";
import { childEnv, REPO } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";
import { catCode } from "../../helpers/binary.ts";

const repl = replUnderTest();
let home: string;
let standIn: MessagesStandIn | undefined;
beforeEach(() => {
  home = repl.tempDir("cat-code-print-");
});

async function runCli(args: string[], env: Record<string, string>, cwd = REPO) {
  const child = Bun.spawn([...catCode(), ...args], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code };
}

function withStandIn(steps: Step[]) {
  standIn = repl.startStandIn(steps, { apiKey: "sk-test" });
  return childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url });
}

test("print mode: the echo tool through fixtures/demo.mcp.json, the final answer on stdout, exit 0", async () => {
  const env = withStandIn([
    reply(text("I will use the echo tool."), toolUse("mcp__echo__echo", { text: "你好" })),
    (request) => reply(text(`The echo tool answered: ${resultText(toolResultsOf(request)[0])}`)),
  ]);
  const { stdout, stderr, code } = await runCli(["-p", "use the echo tool to say 你好", "--allow-all", "--mcp-config", "fixtures/demo.mcp.json"], env);
  expect(code).toBe(0);
  expect(stdout).toBe("The echo tool answered: 你好\n");
  expect(stderr).toContain('⏺ mcp__echo__echo {"text":"你好"} → "你好"');
  // It waited for the server: the first request already offered the MCP tool beside the built-ins.
  const tools = standIn!.requests[0]!.body.tools!.map((tool) => tool.name);
  expect(tools).toEqual(["bash", "read_file", "write_file", "edit_file", "glob", "grep", "todo_write", "web_fetch", "task", "mcp__echo__echo"]);
  expect(standIn!.requests[0]!.body.model).toBe("claude-sonnet-5-5");
});

test("--model wins over CAT_CODE_MODEL, which wins over the default", async () => {
  const env = { ...withStandIn([reply(text("a")), reply(text("b"))]), CAT_CODE_MODEL: "claude-from-env" };
  expect((await runCli(["-p", "hi"], env)).code).toBe(0);
  expect((await runCli(["-p", "hi", "--model", "claude-from-flag"], env)).code).toBe(0);
  expect(standIn!.requests.map((r) => r.body.model)).toEqual(["claude-from-env", "claude-from-flag"]);
});

test("print mode without the key: a line naming ANTHROPIC_API_KEY, exit 2, nothing sent", async () => {
  standIn = repl.startStandIn([]);
  const env = childEnv(home, { ANTHROPIC_BASE_URL: standIn.url });
  const { stdout, stderr, code } = await runCli(["-p", "hello"], env);
  expect(code).toBe(2);
  expect(stdout).toBe("");
  expect(stderr).toContain("ANTHROPIC_API_KEY is not set");
  expect(stderr.trim().split("\n")).toHaveLength(1);
  expect(standIn.requests).toHaveLength(0);
});

test("print mode on an API failure: one error line, exit 3", async () => {
  const env = withStandIn([apiError(401, "authentication_error", "invalid x-api-key")]);
  const { stdout, stderr, code } = await runCli(["-p", "hello"], env);
  expect(code).toBe(3);
  expect(stdout).toBe("");
  expect(stderr.trim()).toBe("error: the Anthropic API rejected the credentials (401 authentication_error): invalid x-api-key; check ANTHROPIC_API_KEY");
});

test("print mode without --allow-all declines a tool that changes things, with the REPL's result", async () => {
  const work = await mkdtemp(join(tmpdir(), "cat-code-print-ws-"));
  try {
    const env = withStandIn([reply(toolUse("write_file", { path: "out.txt", content: "x" })), reply(text("I was not allowed."))]);
    const { stdout, code } = await runCli(["-p", "write out.txt"], env, work);
    expect(code).toBe(0);
    expect(stdout).toBe("I was not allowed.\n");
    expect(existsSync(join(work, "out.txt"))).toBe(false);
    const [result] = toolResultsOf(standIn!.requests[1]!);
    expect(result).toMatchObject({ is_error: true });
    expect(resultText(result)).toContain("The user declined to run write_file");
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

test("an unknown root flag or a bad --max-turns is a usage error", async () => {
  const env = childEnv(home);
  const typo = await runCli(["--alow-all"], env);
  expect(typo.code).toBe(2);
  expect(typo.stderr).toContain("--alow-all");
  const turns = await runCli(["-p", "x", "--max-turns", "0"], env);
  expect(turns.code).toBe(2);
  expect(turns.stderr).toContain("--max-turns");
});

test("the mcp subcommand still works and does not start the agent", async () => {
  const { stdout, code } = await runCli(["mcp", "list", "--mcp-config", "fixtures/demo.mcp.json"], childEnv(home));
  expect(code).toBe(0);
  expect(stdout).toBe("echo  CONNECTED  1 tool(s)  (stdio: ./fixtures/echo-server.sh)\n");
});

test("a CAT_CODE_MCP_STARTUP_TIMEOUT above what a timer holds waits for the servers, never gives up at once", async () => {
  const env = { ...withStandIn([reply(text("ok"))]), CAT_CODE_MCP_STARTUP_TIMEOUT: "3000000000" };
  const { stdout, stderr, code } = await runCli(["-p", "hi", "--mcp-config", "fixtures/demo.mcp.json"], env);
  expect(stderr).not.toContain("not available");
  expect([code, stdout]).toEqual([0, "ok\n"]);
  expect(standIn!.requests[0]!.body.tools!.map((tool) => tool.name)).toContain("mcp__echo__echo");
});
