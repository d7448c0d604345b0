import { afterEach, beforeEach, expect, test } from "bun:test";
import { appendFileSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Conversation } from "../../../../src/agent/conversation.ts";
import { ConversationLog, type UsageSource } from "../../../../src/agent/conversation-log/conversation-log.ts";
import { readConversationLog } from "../../../../src/agent/conversation-log/read-conversation-log.ts";
import { RequestTools } from "../../../../src/agent/request-tools.ts";
import { ToolRegistry } from "../../../../src/agent/tool-registry.ts";
import type { Tool } from "../../../../src/agent/tool.ts";

/** Which deferred tools the search loaded is saved with the session, and read back for a resume. */
let home: string;
let cwd: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "cat-code-loaded-tools-"));
  cwd = await mkdtemp(join(tmpdir(), "cat-code-loaded-tools-cwd-"));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(cwd, { recursive: true, force: true });
});

function serverTool(server: string, name: string): Tool {
  return {
    name: `mcp__${server}__${name}`,
    description: `${name} on ${server}`,
    inputSchema: { type: "object" },
    isReadOnly: true,
    deferrable: true,
    origin: { server, namePrefix: `mcp__${server}__` },
    execute: async () => ({ content: "", isError: false }),
  };
}

const lines = (path: string) => readFileSync(path, "utf8").trim().split("\n").map((line) => JSON.parse(line));

test("each load and a new conversation's empty list are saved whole; reading back takes the last, then the tools the messages call", () => {
  const registry = new ToolRegistry();
  for (const name of ["create_issue", "list_issues", "close_issue"]) registry.register(serverTool("tracker", name));
  const tools = new RequestTools(registry, { kind: "always" });
  const file = ConversationLog.create({ home, cwd, model: "m" });
  const conversation = new Conversation();
  file.attach(conversation, { onAdd: undefined } as UsageSource, tools);

  conversation.addUserText("file a bug");
  tools.load(["mcp__tracker__create_issue"]);
  tools.load(["mcp__tracker__create_issue", "mcp__tracker__list_issues", "mcp__nowhere__x"]);
  expect(lines(file.path).filter((line) => line.type === "tools-loaded")).toEqual([
    { type: "tools-loaded", names: ["mcp__tracker__create_issue"] },
    { type: "tools-loaded", names: ["mcp__tracker__create_issue", "mcp__tracker__list_issues"] },
  ]);
  conversation.addAssistant([{ type: "tool_use", id: "t1", name: "mcp__tracker__close_issue", input: {} } as never]);
  conversation.addToolResults([{ type: "tool_result", tool_use_id: "t1", content: "closed" }]);
  expect(readConversationLog(file.path).loadedTools).toEqual(["mcp__tracker__create_issue", "mcp__tracker__list_issues", "mcp__tracker__close_issue"]);

  // An emptied list is saved too (a conversation replaced while this file still records it).
  tools.reset();
  expect(lines(file.path).at(-1)).toEqual({ type: "tools-loaded", names: [] });

  // Closed, the file hears nothing more and is never opened again: what follows is another file's.
  file.close();
  const saved = readFileSync(file.path, "utf8");
  tools.load(["mcp__tracker__create_issue"]);
  conversation.addUserText("after the close");
  expect(readFileSync(file.path, "utf8")).toBe(saved);
  expect(conversation.onChange).toBeUndefined();
});

test("a file cut short goes on in a new file that keeps the loaded tools", () => {
  const file = ConversationLog.create({ home, cwd, model: "m" });
  const conversation = new Conversation();
  const tools = { listener: undefined as ((names: string[]) => void) | undefined, onLoadedChange(listener: (names: string[]) => void) { this.listener = listener; return () => {}; } };
  file.attach(conversation, { onAdd: undefined } as UsageSource, tools);
  conversation.addUserText("hi");
  tools.listener!(["mcp__a__b"]);
  file.close();
  appendFileSync(file.path, '{"type":"push","mess');
  const read = readConversationLog(file.path);
  expect(read.clean).toBe(false);
  const next = ConversationLog.resume(file.path, read, { home, cwd, model: "m" });
  next.close();
  expect(next.path).not.toBe(file.path);
  expect(readConversationLog(next.path).loadedTools).toEqual(["mcp__a__b"]);
});

test("restore loads what is indexed now and the rest the moment its server's tools join, in the order given", () => {
  const registry = new ToolRegistry();
  registry.register(serverTool("tracker", "create_issue"));
  const tools = new RequestTools(registry, { kind: "always" });
  const heard: string[][] = [];
  tools.onLoadedChange((names) => heard.push(names));
  tools.restore(["mcp__wiki__create_page", "mcp__tracker__create_issue", "read_file"]);
  expect(tools.loadedTools().map((tool) => tool.name)).toEqual(["mcp__tracker__create_issue"]);

  // The wiki server connects later.
  registry.register(serverTool("wiki", "create_page"));
  registry.register(serverTool("wiki", "list_pages"));
  expect(tools.loadedTools().map((tool) => tool.name)).toEqual(["mcp__tracker__create_issue", "mcp__wiki__create_page"]);
  expect(heard.at(-1)).toEqual(["mcp__tracker__create_issue", "mcp__wiki__create_page"]);

  // A new conversation forgets what the old one wanted.
  tools.restore(["mcp__docs__search"]);
  tools.reset();
  registry.register(serverTool("docs", "search"));
  expect(tools.loadedTools()).toEqual([]);
});
