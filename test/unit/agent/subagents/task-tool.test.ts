import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, replyWithUsage, resultText, text, toolResultsOf, toolUse, type RecordedRequest, type Reply } from "../../../../fixtures/anthropic/messages-stand-in.ts";
import { GENERAL_PURPOSE, loadAgentTypes, parseAgentFile, type AgentType } from "../../../../src/agent/subagents/agent-types.ts";
import { claudeHome } from "../../../../src/config/app-home.ts";
import { modelFor } from "../../../../src/agent/subagents/subagent-runner.ts";
import { fakeTool, standIn, stopAfterEach } from "../../../helpers/loop-harness.ts";
import { isChild, parentWith } from "./parent-agent.ts";

stopAfterEach();
let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "cat-code-agents-"));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const EXPLORER: AgentType = { name: "explorer", description: "Finds code", systemPrompt: "You explore code and report paths.", model: "haiku" };

const userText = (request: RecordedRequest) => JSON.stringify(request.body.messages[0]?.content);

test("the task tool runs a subagent with a fresh context, its type's prompt, model and read-only tools; only its answer comes back", async () => {
  writeFileSync(join(project, "parse.ts"), "export function parse() {}\n");
  const { agent } = parentWith(
    [
      () => reply(text("Delegating."), toolUse("task", { description: "find the parser", prompt: "Where is parse defined?", subagent_type: "explorer" })),
      () => replyWithUsage({ input_tokens: 100, output_tokens: 10 }, toolUse("grep", { pattern: "function parse" })),
      (request) => replyWithUsage({ input_tokens: 200, output_tokens: 20 }, text(`parse is in ${resultText(toolResultsOf(request)[0]).split(":")[0]}`)),
      (request) => reply(text(`Answer: ${resultText(toolResultsOf(request)[0])}`)),
    ],
    [GENERAL_PURPOSE, EXPLORER],
    project,
  );
  const outcome = await agent.run("where is the parser?");
  expect(outcome).toMatchObject({ status: "done", text: "Answer: parse is in parse.ts" });
  const [parentFirst, child, childSecond] = standIn().requests;
  expect(parentFirst!.body.tools?.map((tool) => tool.name)).toContain("task");
  expect(parentFirst!.body.tools?.find((tool) => tool.name === "task")?.description).toContain("- explorer: Finds code");
  // The child: only its prompt, its own system prompt, the haiku model, no task tool and nothing that writes.
  expect(child!.body.messages).toHaveLength(1);
  expect(userText(child!)).toContain("Where is parse defined?");
  expect(isChild(child!)).toBe(true);
  expect(child!.body.model).toMatch(/^claude-haiku-/);
  expect(child!.body.tools?.map((tool) => tool.name)).toEqual(["read_file", "glob", "grep", "web_fetch"]);
  expect(childSecond!.body.messages).toHaveLength(3);
  // Its tokens count in the parent's meter (/cost).
  expect(agent.usage.byModel().find((entry) => entry.model.startsWith("claude-haiku-"))?.usage).toMatchObject({ input: 300, output: 30 });
});

test("several tasks in one answer; a subagent's permission question names it; an unknown type is refused", async () => {
  const asked: Array<[string, string | undefined]> = [];
  const writer: AgentType = { name: "writer", description: "Writes", systemPrompt: "You explore code and write.", tools: ["touch"] };
  const route = (request: RecordedRequest): Reply => {
    if (!isChild(request)) {
      if (request.body.messages.length === 1) return reply(toolUse("task", { description: "a", prompt: "job A" }), toolUse("task", { description: "b", prompt: "job B", subagent_type: "writer" }), toolUse("task", { description: "c", prompt: "x", subagent_type: "nope" }));
      return reply(text(toolResultsOf(request).map((block) => resultText(block)).join(" | ")));
    }
    if (toolResultsOf(request).length) return reply(text(`B saw: ${resultText(toolResultsOf(request)[0]).slice(0, 24)}`));
    return userText(request).includes("job A") ? reply(text("A done")) : reply(toolUse("touch", { text: "x" }));
  };
  const { agent, registry: parentRegistry } = parentWith([route, route, route, route, route], [GENERAL_PURPOSE, writer], project, {
    permissions: async (request) => (asked.push([request.tool.name, request.requester]), "deny"),
  });
  parentRegistry.register(fakeTool("touch").tool);
  const outcome = await agent.run("do both");
  expect(outcome).toMatchObject({ status: "done" });
  expect(asked).toEqual([["touch", "writer"]]);
  const answer = outcome.status === "done" ? outcome.text : "";
  expect(answer).toContain("A done | B saw: The user declined to run");
  expect(answer).toContain("there is no agent type 'nope'; use one of: general-purpose, writer");
});

test("agent files in Claude Code's format, the project's first; a bad one is a warning", () => {
  mkdirSync(join(project, ".claude", "agents"), { recursive: true });
  mkdirSync(join(project, ".cat-code", "agents"), { recursive: true });
  writeFileSync(join(project, ".claude", "agents", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews a diff\ntools: Read, Grep, Bash\nmodel: sonnet\n---\nYou review code.\n");
  writeFileSync(join(project, ".cat-code", "agents", "broken.md"), "no front matter here");
  const { types, warnings } = loadAgentTypes({ cwd: project, catCodeHome: join(project, "no-home"), claudeHome: join(project, "no-home"), projectModelTrusted: () => true });
  expect(types.map((type) => type.name)).toEqual(["general-purpose", "reviewer"]);
  expect(types[1]).toMatchObject({ description: "Reviews a diff", tools: ["Read", "Grep", "Bash"], model: "sonnet", systemPrompt: "You review code." });
  expect(warnings).toEqual([expect.stringContaining("broken.md: no front matter")]);
  expect(parseAgentFile("x.md", "---\nname: bad name!\ndescription: d\n---\n")).toEqual({ error: expect.stringContaining("name:") });
  expect([modelFor("inherit", "parent-model"), modelFor(undefined, "p"), modelFor("claude-x", "p")]).toEqual(["parent-model", "p", "claude-x"]);
  expect(modelFor("opus", "p")).toMatch(/^claude-opus-/);
});

test("an agent file is read as a command file is: CRLF, a BOM, tools as a YAML list; an oversized one is refused", () => {
  const listed = parseAgentFile("x.md", "\uFEFF---\r\nname: lister\r\ndescription: 'Lists'\r\ntools:\r\n  - Read\r\n  - Grep\r\n---\r\nPrompt.\r\n");
  expect(listed).toMatchObject({ name: "lister", description: "Lists", tools: ["Read", "Grep"], systemPrompt: "Prompt." });
  const huge = join(project, "huge.md");
  writeFileSync(huge, `---\nname: huge\ndescription: d\n---\n${"x".repeat(64 * 1024)}`);
  expect(parseAgentFile(huge)).toEqual({ error: "larger than 64 KB" });
});

test("the user's agents come from CLAUDE_CONFIG_DIR, else the .claude folder beside the app home, never $HOME", () => {
  const home = join(project, "home", ".cat-code");
  mkdirSync(join(project, "home", ".claude", "agents"), { recursive: true });
  writeFileSync(join(project, "home", ".claude", "agents", "mine.md"), "---\nname: mine\ndescription: The user's own\n---\n");
  const env = { HOME: join(project, "elsewhere"), CAT_CODE_HOME: home };
  expect(claudeHome(env)).toBe(join(project, "home", ".claude"));
  expect(claudeHome({ ...env, CLAUDE_CONFIG_DIR: join(project, "config") })).toBe(join(project, "config"));
  const { types } = loadAgentTypes({ cwd: join(project, "no-project"), catCodeHome: home, claudeHome: claudeHome(env) });
  expect(types.map((type) => type.name)).toEqual(["general-purpose", "mine"]);
});
