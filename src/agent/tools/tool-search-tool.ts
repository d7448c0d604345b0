import * as v from "valibot";
import type { Tool, ToolResult } from "../tool.ts";
import type { SearchHit, ToolSearchIndex } from "../tool-search-index.ts";
import { limitOutput } from "./output-limit.ts";
import { errorResult, okResult, parseToolInput } from "./tool-input.ts";

export const TOOL_SEARCH_NAME = "tool_search";
const DEFAULT_RESULTS = 5;
const MAX_RESULTS = 20;

const DESCRIPTION = `Loads deferred tools: the servers' tools listed by name in the system prompt under "Deferred tools", whose definitions are not sent until searched for. The tools it returns can be called from the next step on, like any other tool.
- query: words for what the tool should do ("create issue"); or exact tool names, separated by spaces ("mcp__tracker__create_issue"); or "<server>:" for a server's tools, optionally followed by words ("tracker: close").
- max_results: at most this many tools (default ${DEFAULT_RESULTS}, at most ${MAX_RESULTS}).
Search before calling a deferred tool whose parameters you do not know.`;

const SearchInput = v.object({
  query: v.pipe(v.string(), v.trim(), v.minLength(1, "give some words, tool names or a <server>: prefix")),
  max_results: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_RESULTS))),
});

/** What the search tool works on: the deferred tools' index, and the request's loaded set. */
export interface DeferredTools {
  readonly index: ToolSearchIndex;
  /** From the next request on, these tools' definitions are sent. */
  load(tools: Tool[]): void;
}

/**
 * The client-side tool search: finds deferred tools by words (BM25 over names, descriptions and
 * parameter names), by exact name or by server, returns their definitions and loads them into the
 * following requests. Runs locally, so it works with every model, proxy and stand-in.
 */
export class ToolSearchTool implements Tool {
  readonly name = TOOL_SEARCH_NAME;
  readonly description = DESCRIPTION;
  readonly isReadOnly = true;
  readonly inputSchema = {
    type: "object",
    properties: {
      query: { type: "string", description: 'Words, exact tool names, or "<server>:" followed by words' },
      max_results: { type: "integer", description: `At most this many tools (default ${DEFAULT_RESULTS})` },
    },
    required: ["query"],
  };

  constructor(private readonly deferred: DeferredTools) {}

  async needsPermission(): Promise<boolean> {
    return false;
  }

  async execute(input: Record<string, unknown>): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, SearchInput, input);
    if (!parsed.ok) return parsed.result;
    const { query, max_results: limit = DEFAULT_RESULTS } = parsed.value;
    const found = findTools(this.deferred.index, query, limit);
    if (found.length === 0) {
      return errorResult(`no deferred tool matches "${query}". Try other words, a tool's exact name from the list, or "<server>:" for all of a server's tools.`);
    }
    this.deferred.load(found);
    const definitions = found.map((tool) => JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
    const heading = `${found.length} tool${found.length === 1 ? "" : "s"} loaded; call ${found.length === 1 ? "it" : "them"} from the next step on:`;
    return okResult(limitOutput([heading, ...definitions].join("\n")));
  }
}

const SERVER_PREFIX = /^([A-Za-z0-9_-]+):\s*(.*)$/s;

/** Exact names first (every word a deferred tool's name), then `<server>:`, then BM25. */
export function findTools(index: ToolSearchIndex, query: string, limit: number): Tool[] {
  const words = query.split(/[\s,]+/).filter(Boolean);
  const exact = words.map((word) => index.get(word));
  if (exact.every((tool) => tool !== undefined)) return [...new Set(exact as Tool[])].slice(0, MAX_RESULTS);
  const prefixed = SERVER_PREFIX.exec(query);
  if (prefixed) {
    const [, server, rest] = prefixed as unknown as [string, string, string];
    const ofServer = (tool: Tool) => tool.origin?.server === server;
    if (index.list().some(ofServer)) {
      if (rest.trim() === "") return index.list().filter(ofServer).slice(0, limit);
      return closeHits(index.search(rest, limit, ofServer));
    }
  }
  return closeHits(index.search(query, limit));
}

/**
 * The tools that have the most of the query's words (all of them, when some do), and of those the
 * ones within half the best score: a tool that shares one word of three costs a definition for little.
 */
const CLOSE_SHARE = 0.5;

function closeHits(hits: SearchHit[]): Tool[] {
  const most = Math.max(0, ...hits.map((hit) => hit.matched));
  const covering = hits.filter((hit) => hit.matched === most);
  const best = covering[0]?.score ?? 0;
  return covering.filter((hit) => hit.score >= best * CLOSE_SHARE).map((hit) => hit.tool);
}
