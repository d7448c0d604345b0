import { describe, expect, test } from "bun:test";
import type { Tool } from "../../../src/agent/tool.ts";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { reply, resultText, text, toolResultsOf, toolUse, type RecordedRequest } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { agentWith, fakeTool, standIn, stopAfterEach } from "../../helpers/loop-harness.ts";

stopAfterEach();

/** A server's tool as the MCP adapter makes one: deferrable, with its origin. */
function serverTool(server: string, name: string, description: string, parameters: string[] = [], calls: unknown[] = []): Tool {
  return {
    name: `mcp__${server}__${name}`,
    description,
    inputSchema: { type: "object", properties: Object.fromEntries(parameters.map((p) => [p, { type: "string" }])) },
    isReadOnly: false,
    deferrable: true,
    origin: { server, namePrefix: `mcp__${server}__` },
    async execute(input) {
      calls.push(input);
      return { content: `${name} ran`, isError: false };
    },
  };
}

function trackerRegistry(calls: unknown[] = []): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register(fakeTool("read_file", { readOnly: true }).tool);
  registry.register(serverTool("tracker", "create_issue", "Create a new issue in the tracker", ["title", "body"], calls));
  registry.register(serverTool("tracker", "list_issues", "List the open issues", ["state"]));
  registry.register(serverTool("wiki", "create_page", "Create a wiki page", ["title", "content"]));
  return registry;
}

const toolNames = (request: RecordedRequest) => request.body.tools?.map((tool) => tool.name);
const systemTexts = (request: RecordedRequest) => ((request.body.system ?? []) as { text: string }[]).map((block) => block.text);

/** The request's bytes up to and including the tool that carries the first cache mark. */
function stableToolPrefix(request: RecordedRequest): string {
  const tools = request.body.tools ?? [];
  const marked = tools.findIndex((tool) => tool.cache_control);
  return JSON.stringify(tools.slice(0, marked + 1));
}

describe("tool search", () => {
  test("with `always`, the first request carries the own tools, the search tool and the deferred names, and no server tool", async () => {
    const agent = agentWith([reply(text("hi"))], trackerRegistry(), { system: "sys", toolSearch: { kind: "always" } });
    await agent.run("hello");
    const [first] = standIn().requests;
    expect(toolNames(first!)).toEqual(["read_file", "tool_search"]);
    const [prompt, note] = systemTexts(first!);
    expect(prompt).toBe("sys");
    expect(note).toContain("tracker (mcp__tracker__…): create_issue list_issues");
    expect(note).toContain("wiki (mcp__wiki__…): create_page");
  });

  test("a search loads the matching tool at the end of the list; the marked prefix of the tools stays byte for byte", async () => {
    const calls: unknown[] = [];
    const agent = agentWith(
      [
        reply(toolUse("tool_search", { query: "create issue" })),
        reply(toolUse("mcp__tracker__create_issue", { title: "bug" })),
        reply(text("filed")),
      ],
      trackerRegistry(calls),
      { system: "sys", toolSearch: { kind: "always" } },
    );
    await agent.run("file a bug");
    const [first, second, third] = standIn().requests;
    const found = resultText(toolResultsOf(second!)[0]);
    expect(found.split("\n")[1]).toStartWith('{"name":"mcp__tracker__create_issue"');
    expect(JSON.parse(found.split("\n")[1]!).input_schema.properties).toEqual({ title: { type: "string" }, body: { type: "string" } });
    expect(toolNames(second!)).toEqual(["read_file", "tool_search", "mcp__tracker__create_issue"]);
    expect(calls).toEqual([{ title: "bug" }]);
    expect(stableToolPrefix(second!)).toBe(stableToolPrefix(first!));
    expect(stableToolPrefix(third!)).toBe(stableToolPrefix(first!));
    // The loaded tool carries the last mark too, so the whole tool list is cached from then on.
    expect(second!.body.tools!.at(-1)!.cache_control).toEqual({ type: "ephemeral" });
    // The list of names stays as it was: the system prompt is cached too.
    expect(systemTexts(second!)).toEqual(systemTexts(first!));
  });

  test("a deferred tool called without a search is run, not refused, and loaded from then on", async () => {
    const calls: unknown[] = [];
    const agent = agentWith([reply(toolUse("mcp__wiki__create_page", { title: "t" })), reply(text("ok"))], trackerRegistry(calls), {
      toolSearch: { kind: "always" },
    });
    await agent.run("make a page");
    const [, second] = standIn().requests;
    expect(resultText(toolResultsOf(second!)[0])).toBe("create_page ran");
    expect(toolNames(second!)).toEqual(["read_file", "tool_search", "mcp__wiki__create_page"]);
  });

  test("a tool whose server went away is reported as disconnected, not as unknown", async () => {
    const registry = trackerRegistry();
    const agent = agentWith([reply(toolUse("mcp__tracker__list_issues", {})), reply(text("ok"))], registry, { toolSearch: { kind: "always" } });
    registry.unregister("mcp__tracker__list_issues");
    await agent.run("list");
    const result = toolResultsOf(standIn().requests[1]!)[0]!;
    expect(result.is_error).toBe(true);
    expect(resultText(result)).toContain("belongs to server 'tracker', which is not connected now");
  });

  test("a tool that joins late is indexed and found; one that leaves is no longer found", async () => {
    const registry = trackerRegistry();
    const agent = agentWith(
      [reply(toolUse("tool_search", { query: "deploy" })), reply(toolUse("tool_search", { query: "list open issues" })), reply(text("done"))],
      registry,
      { toolSearch: { kind: "always" } },
    );
    registry.register(serverTool("ops", "deploy", "Deploy the service"));
    registry.unregister("mcp__tracker__list_issues");
    await agent.run("go");
    const [, second, third] = standIn().requests;
    expect(resultText(toolResultsOf(second!)[0])).toContain('"name":"mcp__ops__deploy"');
    expect(resultText(toolResultsOf(third!)[0])).not.toContain("list_issues");
    expect(agent.tools.index.size).toBe(3);
  });

  test("`auto` defers only past its share of the context window; `never` never", async () => {
    const small = agentWith([reply(text("a"))], trackerRegistry(), { contextWindow: 1_000_000 });
    await small.run("x");
    expect(toolNames(standIn().requests[0]!)).toContain("mcp__tracker__create_issue");
    await standIn().stop();
    // The three definitions are ~100 tokens: over 1% of a 5,000-token window, under 10% of it.
    const tight = agentWith([reply(text("a"))], trackerRegistry(), { contextWindow: 5_000, toolSearch: { kind: "auto", percent: 1 } });
    await tight.run("x");
    expect(toolNames(standIn().requests[0]!)).toEqual(["read_file", "tool_search"]);
    await standIn().stop();
    const never = agentWith([reply(text("a"))], trackerRegistry(), { contextWindow: 5_000, toolSearch: { kind: "never" } });
    await never.run("x");
    expect(toolNames(standIn().requests[0]!)).toHaveLength(4);
  });
});

test("a server with more tools than the names list holds: the list ends with how many more, and the search still finds them", async () => {
  const registry = new ToolRegistry();
  for (let i = 0; i < 2_003; i++) registry.register(serverTool("huge", `tool_${i}`, `tool number ${i}`));
  const agent = agentWith([reply(toolUse("tool_search", { query: "mcp__huge__tool_2002" })), reply(text("ok"))], registry, { toolSearch: { kind: "always" } });
  await agent.run("x");
  const [first, second] = standIn().requests;
  const note = systemTexts(first!)[0]!;
  expect(note).toContain("tool_1999 … 3 more (search \"huge:\")");
  expect(note).not.toContain("tool_2000");
  expect(toolNames(second!)).toContain("mcp__huge__tool_2002");
});
