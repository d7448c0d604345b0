import { afterEach, beforeEach, expect, test } from "bun:test";
import { appendFileSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Conversation } from "../../../../src/agent/conversation.ts";
import { ENDED_MID_CALL, readConversationLog } from "../../../../src/agent/conversation-log/read-conversation-log.ts";
import { ConversationLog, type UsageSource } from "../../../../src/agent/conversation-log/conversation-log.ts";
import { findConversation, listConversations } from "../../../../src/agent/conversation-log/conversation-list.ts";
import type { TokenUsage } from "../../../../src/agent/usage.ts";

let home: string;
let cwd: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "cat-code-session-"));
  cwd = await mkdtemp(join(tmpdir(), "cat-code-session-cwd-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(cwd, { recursive: true, force: true });
});

const tokens = (input: number, output: number): TokenUsage => ({ input, output, cacheRead: 0, cacheWrite: 0 });

/** A conversation of two prompts, one with a tool call, saved through a ConversationLog. */
function savedConversation(): { file: ConversationLog; conversation: Conversation; usage: UsageSource } {
  const file = ConversationLog.create({ home, cwd, model: "claude-test" });
  const conversation = new Conversation();
  const usage: UsageSource = { onAdd: undefined };
  file.attach(conversation, usage);
  conversation.addUserText("list the files");
  conversation.addAssistant([{ type: "tool_use", id: "toolu_1", name: "glob", input: { pattern: "*" }, caller: { type: "direct" } } as never]);
  usage.onAdd?.("claude-test", tokens(100, 10));
  conversation.addToolResults([{ type: "tool_result", tool_use_id: "toolu_1", content: "a.ts" }]);
  conversation.addAssistant([{ type: "text", text: "There is a.ts.", citations: null }]);
  usage.onAdd?.("claude-test", tokens(120, 5));
  conversation.addUserText("thanks");
  return { file, conversation, usage };
}

test("a session read back is the conversation and the usage as they were saved", () => {
  const { file, conversation } = savedConversation();
  file.close();
  const read = readConversationLog(file.path);
  expect(read.warnings).toEqual([]);
  expect(read.messages).toEqual(conversation.snapshot());
  expect(read.usage).toEqual([
    { model: "claude-test", usage: tokens(100, 10) },
    { model: "claude-test", usage: tokens(120, 5) },
  ]);
  expect([read.id, read.model, read.firstPrompt, read.clean]).toEqual([file.id, "claude-test", "list the files", true]);
});

test("the file is 0600 in a 0700 folder under sessions/<project-hash>/", () => {
  const { file } = savedConversation();
  file.close();
  expect(statSync(file.path).mode & 0o777).toBe(0o600);
  expect(statSync(dirname(file.path)).mode & 0o777).toBe(0o700);
  expect(dirname(dirname(file.path))).toBe(join(home, "sessions"));
  expect(file.path.endsWith(`${file.id}.jsonl`)).toBe(true);
});

test("nothing is written before the conversation changes", () => {
  const file = ConversationLog.create({ home, cwd, model: "claude-test" });
  file.attach(new Conversation(), { onAdd: undefined });
  file.close();
  expect(listConversations(home, cwd)).toEqual([]);
  expect(() => statSync(file.path)).toThrow();
});

test("a cut last line: resumed up to the last complete line, with a warning", () => {
  const { file } = savedConversation();
  file.close();
  const whole = readFileSync(file.path, "utf8");
  writeFileSync(file.path, whole.slice(0, whole.length - 8));
  const read = readConversationLog(file.path);
  expect(read.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  expect(read.warnings).toHaveLength(1);
  expect(read.warnings[0]).toContain("its last line is cut short; resumed up to line");
  expect(read.clean).toBe(false);
});

test("a line of garbage in the middle: what came before it, a warning naming the line", () => {
  const { file } = savedConversation();
  file.close();
  const lines = readFileSync(file.path, "utf8").split("\n");
  lines.splice(3, 0, '{"type":"push","message":{"role":"user"'); // line 4: cut JSON
  writeFileSync(file.path, lines.join("\n"));
  const read = readConversationLog(file.path);
  expect(read.warnings).toEqual([`session ${file.id}.jsonl: line 4 is not a valid session line; resumed up to line 3`]);
  // The conversation ends in the tool call (line 3), which is answered so the API takes it.
  expect(read.messages).toHaveLength(3);
  expect(read.messages[2]).toEqual({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", is_error: true, content: ENDED_MID_CALL }] });
  expect(read.repaired).toBe(true);
});

test("a line over the limit and a file over the limit are warnings, never read into memory", () => {
  const { file } = savedConversation();
  file.close();
  appendFileSync(file.path, `${JSON.stringify({ type: "push", message: { role: "assistant", content: [{ type: "text", text: "x".repeat(5000) }] } })}\n`);
  const long = readConversationLog(file.path, { maxLineBytes: 4096, maxFileBytes: 1 << 20 });
  expect(long.warnings[0]).toMatch(/line 9 is over 4\.0 KB; resumed up to line 8/);
  expect(long.messages.at(-1)).toMatchObject({ role: "user" });
  const large = readConversationLog(file.path, { maxLineBytes: 1 << 20, maxFileBytes: 2048 });
  expect(large.messages).toEqual([]);
  expect(large.warnings[0]).toMatch(/over the 2\.0 KB a session may have: not read/);
});

test("resuming a clean file appends to it under the same id; a corrupt one goes on in a new file", () => {
  const { file } = savedConversation();
  file.close();
  const read = readConversationLog(file.path);
  const again = ConversationLog.resume(file.path, read, { home, cwd, model: "claude-test" });
  expect(again.id).toBe(file.id);
  const conversation = new Conversation();
  conversation.load(read.messages);
  const usage: UsageSource = { onAdd: undefined };
  again.attach(conversation, usage);
  conversation.addAssistant([{ type: "text", text: "You are welcome.", citations: null }]);
  again.close();
  expect(readConversationLog(file.path).messages).toEqual(conversation.snapshot());

  appendFileSync(file.path, "not json\n");
  const corrupt = readConversationLog(file.path);
  const forked = ConversationLog.resume(file.path, corrupt, { home, cwd, model: "claude-test" });
  forked.close();
  expect(forked.id).not.toBe(file.id);
  const copy = readConversationLog(forked.path);
  expect(copy.messages).toEqual(conversation.snapshot());
  expect(copy.usage).toEqual(corrupt.usage);
  expect(copy.warnings).toEqual([]);
});

test("the list: newest first, with the first prompt and the message count; ids are checked before they become paths", () => {
  const first = savedConversation().file;
  first.close();
  // An hour older, so the order does not hang on the file system's clock.
  const anHourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(first.path, anHourAgo, anHourAgo);
  const second = ConversationLog.create({ home, cwd, model: "claude-test" });
  const conversation = new Conversation();
  second.attach(conversation, { onAdd: undefined });
  conversation.addUserText("second session");
  second.close();
  const list = listConversations(home, cwd);
  expect(list.map((s) => [s.id, s.firstPrompt, s.messageCount])).toEqual([
    [second.id, "second session", 1],
    [first.id, "list the files", 5],
  ]);
  expect(findConversation(home, cwd, first.id)).toBe(first.path);
  expect(findConversation(home, cwd, "../../etc/passwd")).toBeUndefined();
  expect(listConversations(home, join(cwd, "elsewhere"))).toEqual([]);
});
