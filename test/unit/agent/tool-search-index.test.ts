import { describe, expect, test } from "bun:test";
import type { Tool } from "../../../src/agent/tool.ts";
import { termsOf, ToolSearchIndex } from "../../../src/agent/tool-search-index.ts";
import { parseToolSearchMode, resolveToolSearchMode } from "../../../src/agent/tool-search-mode.ts";
import { findTools } from "../../../src/agent/tools/tool-search-tool.ts";

function tool(server: string, name: string, description: string, parameters: string[] = []): Tool {
  return {
    name: `mcp__${server}__${name}`,
    description,
    inputSchema: { type: "object", properties: Object.fromEntries(parameters.map((p) => [p, { type: "string" }])) },
    isReadOnly: true,
    deferrable: true,
    origin: { server, namePrefix: `mcp__${server}__` },
    execute: async () => ({ content: "", isError: false }),
  };
}

function indexOf(...tools: Tool[]): ToolSearchIndex {
  const index = new ToolSearchIndex();
  for (const t of tools) index.add(t);
  return index;
}

const names = (tools: Tool[]) => tools.map((t) => t.name);

describe("the tool search index", () => {
  const tracker = [
    tool("tracker", "create_issue", "Create a new issue", ["title", "body"]),
    tool("tracker", "list_issues", "List issues, newest first", ["state"]),
    tool("tracker", "add_comment", "Comment on an issue", ["issue_number", "text"]),
    tool("wiki", "createPage", "Create a page", ["title"]),
  ];

  test("words split by underscores, dashes and camelCase; plurals and stop words fall away", () => {
    expect(termsOf("createIssue list_issues add-comment the MCP")).toEqual(["create", "issue", "list", "issue", "add", "comment"]);
  });

  test("BM25 ranks the tool named for the words first; parameter names count", () => {
    const index = indexOf(...tracker);
    expect(names(index.search("create issue", 5).map((hit) => hit.tool))[0]).toBe("mcp__tracker__create_issue");
    expect(names(index.search("issue_number", 5).map((hit) => hit.tool))[0]).toBe("mcp__tracker__add_comment");
    expect(index.search("nothing like it", 5)).toEqual([]);
  });

  test("removing a tool takes only its terms out; adding it again finds it again", () => {
    const index = indexOf(...tracker);
    index.remove("mcp__tracker__create_issue");
    expect(names(index.search("create", 5).map((hit) => hit.tool))).toEqual(["mcp__wiki__createPage"]);
    index.add(tracker[0]!);
    expect(index.size).toBe(4);
    expect(index.search("create issue", 1)[0]!.tool.name).toBe("mcp__tracker__create_issue");
  });

  test("exact names, and a server: prefix with or without words", () => {
    const index = indexOf(...tracker);
    expect(names(findTools(index, "mcp__wiki__createPage mcp__tracker__list_issues", 5))).toEqual(["mcp__wiki__createPage", "mcp__tracker__list_issues"]);
    expect(names(findTools(index, "wiki:", 5))).toEqual(["mcp__wiki__createPage"]);
    expect(names(findTools(index, "tracker: create", 5))).toEqual(["mcp__tracker__create_issue"]);
    expect(names(findTools(index, "tracker:", 2))).toHaveLength(2);
  });
});

describe("the toolSearch setting and ENABLE_TOOL_SEARCH", () => {
  test("auto, auto:<percent>, always, never; true and false only from the environment", () => {
    expect(parseToolSearchMode("auto")).toEqual({ kind: "auto", percent: 10 });
    expect(parseToolSearchMode("auto:5")).toEqual({ kind: "auto", percent: 5 });
    expect(parseToolSearchMode("ALWAYS")).toEqual({ kind: "always" });
    expect(parseToolSearchMode("never")).toEqual({ kind: "never" });
    expect(parseToolSearchMode("auto:150")).toBeUndefined();
    expect(parseToolSearchMode("true")).toBeUndefined();
    expect(parseToolSearchMode("true", true)).toEqual({ kind: "always" });
    expect(parseToolSearchMode("false", true)).toEqual({ kind: "never" });
  });

  test("the environment overrides the setting; a bad value is ignored with a warning naming it", () => {
    expect(resolveToolSearchMode("never", { ENABLE_TOOL_SEARCH: "auto:3" })).toEqual({ kind: "auto", percent: 3 });
    expect(resolveToolSearchMode("always", {})).toEqual({ kind: "always" });
    const warnings: string[] = [];
    expect(resolveToolSearchMode("never", { ENABLE_TOOL_SEARCH: "sometimes" }, (line) => warnings.push(line))).toEqual({ kind: "never" });
    expect(warnings[0]).toContain('ENABLE_TOOL_SEARCH="sometimes"');
    expect(resolveToolSearchMode(undefined, {})).toEqual({ kind: "auto", percent: 10 });
  });
});
