import * as v from "valibot";
import type { Tool, ToolContext, ToolResult } from "../tool.ts";
import { errorResult, okResult, parseToolInput } from "./tool-input.ts";

/** Where each server stands once a wait ends. */
export interface ServersWaited {
  connected: Array<{ name: string; tools: number }>;
  failed: Array<{ name: string; reason: string }>;
  /** Still connecting when the wait's bound passed (or the user cancelled). */
  pending: string[];
  /** Named by the model, but no server has that name. */
  unknown: string[];
  /** Not in use (disabled, waiting for approval or a sign-in): waiting would not change them. */
  unavailable: Array<{ name: string; state: string }>;
}

/**
 * What the tool needs of the servers: the front end fills it from its connections (the agent
 * knows nothing of how servers connect). `wait` ends when every named server (or, with none named,
 * every server still connecting) has connected or failed, when its own bound passes, or when
 * `signal` aborts; it never rejects.
 */
export interface ServerWaiter {
  /** The servers still connecting now. */
  connecting(): string[];
  /** The longest a wait may take, in milliseconds (the servers' connect timeout). */
  readonly boundMs: number;
  wait(names: string[] | undefined, signal?: AbortSignal): Promise<ServersWaited>;
}

const WaitInput = v.object({
  servers: v.optional(v.array(v.pipe(v.string(), v.minLength(1, "a server name is not empty")), "servers must be a list of server names")),
});

/**
 * `wait_for_mcp_servers`: lets the model wait for servers still connecting when a prompt was sent,
 * instead of answering without their tools. Bounded by the servers' connect timeout; Esc ends it.
 */
export class WaitForServersTool implements Tool {
  readonly name = "wait_for_mcp_servers";
  readonly isReadOnly = true;
  readonly inputSchema = {
    type: "object",
    properties: {
      servers: { type: "array", items: { type: "string" }, description: "The servers to wait for (their names, as in mcp__<server>__<tool>); all that are still connecting if omitted" },
    },
  };

  constructor(private readonly servers: ServerWaiter) {}

  get description(): string {
    return `Waits for MCP servers that are still connecting, so their tools (mcp__<server>__*) become available; returns which connected, failed or are still pending. Use it when you need a tool of a server you were told is still connecting. Waits at most ${Math.round(this.servers.boundMs / 1000)} s.`;
  }

  /** Waiting changes nothing and reads nothing of the user's. */
  async needsPermission(): Promise<boolean> {
    return false;
  }

  async execute(input: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, WaitInput, input);
    if (!parsed.ok) return parsed.result;
    const names = parsed.value.servers?.length ? [...new Set(parsed.value.servers)] : undefined;
    if (!names && this.servers.connecting().length === 0) return okResult("No MCP server is still connecting: every server's tools that could be available are.");
    const waited = await this.servers.wait(names, context.signal);
    if (context.signal?.aborted) return errorResult(`cancelled by the user while waiting${describeWaited(waited) ? `; so far: ${describeWaited(waited)}` : ""}`);
    return okResult(describeWaited(waited) || "No MCP server to wait for.");
  }
}

/** One line per outcome, for the model. */
export function describeWaited(waited: ServersWaited): string {
  const lines: string[] = [];
  if (waited.connected.length) lines.push(`Connected: ${waited.connected.map((s) => `${s.name} (${s.tools} tool(s), mcp__${s.name}__*)`).join(", ")}`);
  if (waited.failed.length) lines.push(`Failed: ${waited.failed.map((s) => `${s.name} (${s.reason})`).join(", ")}`);
  if (waited.pending.length) lines.push(`Still connecting: ${waited.pending.join(", ")}`);
  if (waited.unavailable.length) lines.push(`Not in use: ${waited.unavailable.map((s) => `${s.name} (${s.state})`).join(", ")}`);
  if (waited.unknown.length) lines.push(`No such server: ${waited.unknown.join(", ")}`);
  return lines.join("\n");
}
