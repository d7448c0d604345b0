import { beforeEach, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  reply,
  replyWithUsage,
  text,
  toolResultsOf,
  toolUse,
  type MessagesStandIn,
  type Step,
} from "../../../fixtures/anthropic/messages-stand-in.ts";
import { conversationLogsFolder } from "../../../src/agent/conversation-log/conversation-log-paths.ts";
import { childEnv } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";
import { catCode } from "../../helpers/binary.ts";

/** Print mode as a script runs it: a real child process against the Messages API stand-in. */
const repl = replUnderTest();
let home: string;
let work: string;
let standIn: MessagesStandIn | undefined;
beforeEach(() => {
  home = repl.tempDir("cat-code-print-home-");
  work = repl.tempDir("cat-code-print-work-");
});

function withStandIn(steps: Step[]) {
  standIn = repl.startStandIn(steps, { apiKey: "sk-test" });
  return childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, CAT_CODE_MODEL: "claude-sonnet-5-5" });
}

async function runCli(args: string[], env: Record<string, string>, stdin: string | Blob | "ignore" = "ignore") {
  const child = Bun.spawn([...catCode(), ...args], {
    cwd: work,
    env,
    stdin: stdin === "ignore" ? "ignore" : typeof stdin === "string" ? new Blob([stdin]) : stdin,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code };
}

/** The text of a request's user messages, in order. */
function userTexts(index: number): string[] {
  return standIn!.requests[index]!.body.messages.flatMap((message) =>
    message.role !== "user" || typeof message.content === "string" ? [] : message.content.flatMap((block) => (block.type === "text" ? [String(block.text)] : [])),
  );
}

const USAGE = { input_tokens: 1000, output_tokens: 200, cache_read_input_tokens: 5000, cache_creation_input_tokens: 100 };

test("--output-format json: the result with usage, cost and the session id, whose file --resume goes on from", async () => {
  const env = withStandIn([replyWithUsage(USAGE, text("Four.")), (request) => replyWithUsage({ input_tokens: 7, output_tokens: 3 }, text(`You asked ${request.body.messages.length} messages in.`))]);
  const first = await runCli(["-p", "what is 2+2?", "--output-format", "json"], env);
  expect([first.code, first.stderr]).toEqual([0, ""]);
  const result = JSON.parse(first.stdout);
  expect(result).toMatchObject({
    type: "result",
    subtype: "success",
    is_error: false,
    result: "Four.",
    usage: { input_tokens: 1000, output_tokens: 200, cache_read_input_tokens: 5000, cache_creation_input_tokens: 100 },
    num_turns: 1,
  });
  // claude-sonnet-5-5: $2 in, $10 out, $0.20 cache read, $2.50 cache write per million tokens.
  expect(result.cost_usd).toBeCloseTo(0.00525, 10);
  expect(typeof result.duration_ms).toBe("number");
  const file = join(conversationLogsFolder(home, work), `${result.session_id}.jsonl`);
  expect(statSync(file).mode & 0o777).toBe(0o600);

  const second = await runCli(["-p", "and again?", "--resume", result.session_id, "--output-format", "json"], env);
  expect(second.code).toBe(0);
  expect(JSON.parse(second.stdout)).toMatchObject({ session_id: result.session_id, result: "You asked 3 messages in." });
  // This run's usage, not the session's: the first run's tokens are not counted again.
  expect(JSON.parse(second.stdout).usage).toEqual({ input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  expect(userTexts(1)).toEqual(["what is 2+2?", "and again?"]);
});

test("--output-format json on an API failure: is_error with the message, exit 3", async () => {
  const env = withStandIn([{ kind: "error", status: 401, type: "authentication_error", message: "invalid x-api-key" }]);
  const { stdout, code } = await runCli(["-p", "hi", "--output-format", "json"], env);
  expect(code).toBe(3);
  expect(JSON.parse(stdout)).toMatchObject({ is_error: true, subtype: "error_during_execution", num_turns: 1, cost_usd: 0 });
  expect(JSON.parse(stdout).result).toContain("401 authentication_error");
});

test("--output-format stream-json: init, the model's messages, the tool results, the result, one JSON per line", async () => {
  const env = withStandIn([reply(text("Looking."), toolUse("glob", { pattern: "*.md" }, "toolu_glob")), reply(text("No Markdown here."))]);
  const { stdout, code } = await runCli(["-p", "any markdown?", "--output-format", "stream-json"], env);
  expect(code).toBe(0);
  const events = stdout.trim().split("\n").map((line) => JSON.parse(line));
  expect(events.map((e) => `${e.type}${e.subtype ? `/${e.subtype}` : ""}`)).toEqual(["system/init", "assistant", "user", "assistant", "result/success"]);
  const [init, toolCall, toolResult, answer, result] = events;
  expect(init.tools).toContain("glob");
  expect(init.model).toBe("claude-sonnet-5-5");
  expect(toolCall.message.content).toEqual([{ type: "text", text: "Looking." }, { type: "tool_use", id: "toolu_glob", name: "glob", input: { pattern: "*.md" } }]);
  expect(toolResult.message.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_glob" });
  expect(answer.message.content).toEqual([{ type: "text", text: "No Markdown here." }]);
  expect(result).toMatchObject({ result: "No Markdown here.", num_turns: 2, session_id: init.session_id });
  expect(new Set(events.map((e) => e.session_id))).toEqual(new Set([init.session_id]));
});

test("stdin goes along with the prompt; -p without a prompt reads it from stdin", async () => {
  const env = withStandIn([reply(text("A summary.")), reply(text("Done."))]);
  const piped = await runCli(["-p", "summarize"], env, "line 1\nline 2\n");
  expect([piped.code, piped.stdout]).toEqual([0, "A summary.\n"]);
  expect(userTexts(0)).toEqual(["summarize\n\n<stdin>\nline 1\nline 2\n</stdin>"]);
  const alone = await runCli(["-p"], env, "fix the typo in README\n");
  expect([alone.code, alone.stdout]).toEqual([0, "Done.\n"]);
  expect(userTexts(1)).toEqual(["fix the typo in README"]);
});

test("stdin over 10 MB is refused with a clear error before anything is sent", async () => {
  const env = withStandIn([]);
  const { stdout, stderr, code } = await runCli(["-p", "summarize"], env, new Blob(["x".repeat(10 * 1024 * 1024 + 1)]));
  expect([code, stdout]).toEqual([2, ""]);
  expect(stderr.trim()).toBe("error: stdin is over 10.0 MB: give -p a smaller input (or a file's path in the prompt, for the model to read)");
  expect(standIn!.requests).toHaveLength(0);
});

test("a flag without its value, an unknown format, two prompts: usage errors naming the flag, exit 2", async () => {
  const env = withStandIn([]);
  for (const [args, message] of [
    [["-p", "hi", "--model"], "--model needs a value: --model <name>"],
    [["-p", "--model", "--output-format", "json", "hi"], "--model needs a value"],
    [["-p", "hi", "--output-format"], "--output-format needs a value"],
    [["-p", "hi", "--max-turns"], "--max-turns needs a value"],
    [["-p", "hi", "--output-format", "yaml"], "--output-format must be text, json or stream-json, got 'yaml'"],
    [["-p", "hi", "--allowedTools", "Bsh"], "--allowedTools: 'Bsh' is not a rule"],
    [["--output-format", "json"], "--output-format is for print mode: add -p"],
    [["-p", "fix", "the", "tests"], 'cat-code takes one prompt: quote it, as in cat-code "fix the tests"'],
    [["mpc", "list"], "'mpc' is no command (did you mean mcp?)"],
    [["-p", "hi", "--resume"], "--resume without an id lists sessions to pick from, which needs a terminal"],
    [["-p", "hi", "--resume", "0d4e3f8a-0000-4000-8000-000000000000"], "no session '0d4e3f8a-0000-4000-8000-000000000000' in this folder"],
    [["-p", "hi", "-c"], "no session to continue in this folder"],
  ] as const) {
    const { stderr, code } = await runCli([...args], env);
    expect([args, code]).toEqual([args, 2]);
    expect(stderr).toContain(message);
  }
  expect(standIn!.requests).toHaveLength(0);
});

test("flags around the prompt: -p then other flags then the prompt", async () => {
  const env = withStandIn([reply(text("ok"))]);
  const { stdout, code } = await runCli(["-p", "--model", "claude-haiku-5-5", "--max-turns", "2", "the question"], env);
  expect([code, stdout]).toEqual([0, "ok\n"]);
  expect(standIn!.requests[0]!.body.model).toBe("claude-haiku-5-5");
  expect(userTexts(0)).toEqual(["the question"]);
});

test("--allowedTools lets print mode run what it names; --disallowedTools holds even with --allow-all", async () => {
  const env = withStandIn([
    reply(toolUse("write_file", { path: "a.txt", content: "A" })),
    reply(text("wrote a")),
    reply(toolUse("write_file", { path: "b.txt", content: "B" })),
    reply(text("could not write b")),
  ]);
  const allowed = await runCli(["-p", "write a", "--allowedTools", "Bash(npm test:*),Write"], env);
  expect([allowed.code, allowed.stdout]).toEqual([0, "wrote a\n"]);
  expect(existsSync(join(work, "a.txt"))).toBe(true);
  const denied = await runCli(["-p", "write b", "--allow-all", "--disallowedTools", "Edit"], env);
  expect([denied.code, denied.stdout]).toEqual([0, "could not write b\n"]);
  expect(existsSync(join(work, "b.txt"))).toBe(false);
  expect(toolResultsOf(standIn!.requests[3]!)[0]).toMatchObject({ is_error: true });
});

test("--continue in a new process sends the earlier messages; each run saves its session", async () => {
  const env = withStandIn([reply(text("Noted: the code word is tangerine.")), (request) => reply(text(`${request.body.messages.length} messages`))]);
  expect((await runCli(["-p", "remember tangerine"], env)).code).toBe(0);
  const again = await runCli(["-c", "-p", "what was the word?"], env);
  expect([again.code, again.stdout]).toEqual([0, "3 messages\n"]);
  const second = standIn!.requests[1]!.body.messages;
  expect(second.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  expect(JSON.stringify(second[1])).toContain("tangerine");
  // One session, gone on with: --continue keeps its id.
  expect(readdirSync(conversationLogsFolder(home, work))).toHaveLength(1);
});

test("a session file cut short: -c resumes it up to its last complete line with a warning, and goes on in a new file", async () => {
  const env = withStandIn([reply(text("First answer.")), reply(text("Second answer.")), (request) => reply(text(`${request.body.messages.length} messages`))]);
  const first = JSON.parse((await runCli(["-p", "first", "--output-format", "json"], env)).stdout);
  expect((await runCli(["-c", "-p", "second"], env)).code).toBe(0);
  const path = join(conversationLogsFolder(home, work), `${first.session_id}.jsonl`);
  const whole = await Bun.file(path).text();
  // A crash in the middle of writing the last line (the second answer).
  await Bun.write(path, whole.slice(0, whole.lastIndexOf('{"type":"push"') + 20));
  const third = await runCli(["-c", "-p", "third", "--output-format", "json"], env);
  expect(third.code).toBe(0);
  expect(third.stderr).toMatch(new RegExp(`session ${first.session_id}\\.jsonl: its last line is cut short; resumed up to line \\d+`));
  const result = JSON.parse(third.stdout);
  // first, its answer, then "second" and "third" joined in one user message: the cut answer is gone.
  expect(result.result).toBe("3 messages");
  expect(JSON.stringify(standIn!.requests[2]!.body.messages)).not.toContain("Second answer.");
  expect(result.session_id).not.toBe(first.session_id);
  expect(readdirSync(conversationLogsFolder(home, work))).toHaveLength(2);
});
