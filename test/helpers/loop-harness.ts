import { afterEach } from "bun:test";
import { AgentLoop, type AgentLoopOptions } from "../../src/agent/agent-loop.ts";
import type { AgentObserver, RetryNotice, ToolCall } from "../../src/agent/agent-observer.ts";
import { createModelClient } from "../../src/agent/model-client.ts";
import { allowAll } from "../../src/agent/permission.ts";
import type { Tool, ToolResult } from "../../src/agent/tool.ts";
import type { ToolRegistry } from "../../src/agent/tool-registry.ts";
import type { ServerPool } from "../../src/mcp/pool/server-pool.ts";
import { startMessagesStandIn, type MessagesStandIn, type Step } from "../../fixtures/anthropic/messages-stand-in.ts";

/** What the AgentLoop tests share: a stand-in per test, stopped after it, and small fakes. */
export const current: { standIn?: MessagesStandIn; pool?: ServerPool } = {};

export function stopAfterEach(): void {
  afterEach(async () => {
    await current.standIn?.stop();
    await current.pool?.closeAll();
    current.standIn = undefined;
    current.pool = undefined;
  });
}

/** The stand-in of the running test. */
export function standIn(): MessagesStandIn {
  if (!current.standIn) throw new Error("no stand-in started");
  return current.standIn;
}

/** A fake tool that records its calls; `result` decides what it answers. */
export function fakeTool(name: string, options: { readOnly?: boolean; result?: (input: Record<string, unknown>) => ToolResult | Promise<ToolResult> } = {}) {
  const calls: Record<string, unknown>[] = [];
  const tool: Tool = {
    name,
    description: `the ${name} tool`,
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    isReadOnly: options.readOnly ?? false,
    async execute(input) {
      calls.push(input);
      return options.result ? options.result(input) : { content: `${name} ran`, isError: false };
    },
  };
  return { tool, calls };
}

export function agentWith(steps: Step[], registry: ToolRegistry, overrides: Partial<AgentLoopOptions> = {}) {
  current.standIn = startMessagesStandIn(steps);
  return new AgentLoop({
    client: createModelClient({ apiKey: "test-key", baseURL: current.standIn.url }),
    model: "claude-test",
    registry,
    permissions: allowAll,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...overrides,
  });
}

export function recordingObserver() {
  const seen = { text: "", tools: [] as { call: ToolCall; result: ToolResult }[], retries: [] as RetryNotice[] };
  const observer: AgentObserver = {
    onText: (delta) => (seen.text += delta),
    onToolResult: (call, result) => seen.tools.push({ call, result }),
    onRetry: (notice) => seen.retries.push(notice),
  };
  return { seen, observer };
}
