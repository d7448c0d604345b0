import type Anthropic from "@anthropic-ai/sdk";
import { measureContext, type ContextPart, type ContextPartKey, type ContextUsage, type CountRequest } from "../agent/context-usage.ts";
import { createModelClient } from "../agent/model-client.ts";
import { contextWindowOf } from "../agent/models.ts";
import { alignColumns, sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { AgentRuntime } from "./agent-runtime.ts";

/** count_tokens is a quick call; a proxy that holds it must not hold /context up for long. */
const COUNT_TIMEOUT_MS = 10_000;
const BAR_WIDTH = 50;
/** Past this many servers a part lists the largest ones and says how many more there are. */
const MAX_SERVERS_SHOWN = 10;

const LABELS: Record<ContextPartKey, string> = {
  system: "system prompt",
  memory: "memory files",
  builtin: "built-in tools",
  "mcp-loaded": "MCP tools loaded",
  "mcp-deferred": "MCP tools deferred",
  messages: "messages",
};
const GLYPHS: Record<ContextPartKey, string> = { system: "█", memory: "▓", builtin: "▒", "mcp-loaded": "▚", "mcp-deferred": "▞", messages: "░" };
const FREE_GLYPH = "·";

/**
 * `/context`: what the next request costs, by part, counted by the API's count_tokens when it
 * answers (else an estimate, marked "~estimate"), and as a bar of the context window.
 */
export async function contextText(runtime: AgentRuntime, signal?: AbortSignal, options: { client?: Anthropic } = {}): Promise<string> {
  const model = runtime.model;
  const client = options.client ?? (runtime.hasCredentials ? createModelClient({ timeoutMs: COUNT_TIMEOUT_MS }) : undefined);
  const count =
    client &&
    (async (request: CountRequest) =>
      (await client.messages.countTokens({ model, messages: request.messages, ...(request.system ? { system: request.system } : {}), ...(request.tools?.length ? { tools: request.tools } : {}) }, { signal }))
        .input_tokens);
  const usage = await measureContext({
    model,
    window: contextWindowOf(model),
    system: runtime.systemPrompt(),
    systemWithoutMemory: runtime.systemPrompt(false),
    memoryFiles: runtime.memory.files.length,
    tools: runtime.requestTools,
    messages: runtime.conversationMessages(),
    count,
  });
  return renderContext(usage);
}

export function renderContext(usage: ContextUsage): string {
  const estimated = usage.counted === "estimate";
  const n = (tokens: number) => `${estimated ? "~" : ""}${tokens.toLocaleString("en-US")}`;
  const share = (tokens: number) => `${((100 * tokens) / usage.window).toFixed(1)}%`;
  const how = estimated ? `~estimate (${sanitizeForTerminal(usage.why ?? "")})` : "counted by the API";
  const lines = [`Context of the next request: ${sanitizeForTerminal(usage.model)} · ${n(usage.total)} of ${usage.window.toLocaleString("en-US")} tokens (${share(usage.total)}) · ${how}`];
  lines.push(bar(usage));
  const rows: string[][] = [];
  for (const part of usage.parts) {
    rows.push([`${GLYPHS[part.key]} ${label(part)}`, n(part.tokens), share(part.tokens), note(part)]);
    const servers = part.servers ?? [];
    for (const server of servers.slice(0, MAX_SERVERS_SHOWN)) {
      rows.push([`    ${sanitizeForTerminal(server.server)} (${server.tools.toLocaleString("en-US")} tool${server.tools === 1 ? "" : "s"})`, n(server.tokens), "", ""]);
    }
    if (servers.length > MAX_SERVERS_SHOWN) rows.push([`    … ${servers.length - MAX_SERVERS_SHOWN} more servers`, "", "", ""]);
  }
  rows.push([`${FREE_GLYPH} free space`, n(usage.free), share(usage.free), ""]);
  lines.push(...alignColumns(rows).map((line) => `  ${line.trimEnd()}`));
  return lines.join("\n");
}

function label(part: ContextPart): string {
  return part.key === "system" ? LABELS.system : `${LABELS[part.key]} (${part.count.toLocaleString("en-US")})`;
}

function note(part: ContextPart): string {
  if (part.key !== "mcp-deferred") return "";
  return `the search tool and the names; their definitions, ~${part.definitionsTokens?.toLocaleString("en-US")}, are not sent`;
}

/** One cell a 50th of the window; a part that is there gets a cell even when smaller. */
function bar(usage: ContextUsage): string {
  let cells = "";
  for (const part of usage.parts) {
    if (part.tokens <= 0) continue;
    cells += GLYPHS[part.key].repeat(Math.max(1, Math.round((BAR_WIDTH * part.tokens) / usage.window)));
  }
  cells = cells.slice(0, BAR_WIDTH);
  return `  [${cells}${FREE_GLYPH.repeat(BAR_WIDTH - [...cells].length)}]`;
}
