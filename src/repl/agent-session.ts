import { AgentLoop } from "../agent/agent-loop.ts";
import { MISSING_CREDENTIALS_MESSAGE } from "../agent/agent-error.ts";
import { createBuiltinTools } from "../agent/builtin-tools.ts";
import { createModelClient, hasCredentials } from "../agent/model-client.ts";
import type { PermissionGate } from "../agent/permission.ts";
import type { RetryPolicy } from "../agent/retry-policy.ts";
import { systemPrompt } from "../agent/system-prompt.ts";
import { ToolRegistry } from "../agent/tool-registry.ts";
import type { McpToolPool } from "../mcp/pool/tool-pool.ts";
import { summarizeMcpStartup, type McpStartupSummary } from "./mcp-startup.ts";

export interface AgentSessionOptions {
  model: string;
  cwd: string;
  pool: McpToolPool;
  permissions: PermissionGate;
  maxTurns?: number;
  retry?: Partial<RetryPolicy>;
  env?: Record<string, string | undefined>;
}

/**
 * What the REPL and print mode share: one registry holding the built-in tools and, once the servers
 * are up, the MCP tools; the pool that owns the servers; and the agent, made when first needed, so
 * that a missing API key only matters when a prompt is sent.
 */
export class AgentSession {
  readonly registry = new ToolRegistry();
  readonly pool: McpToolPool;
  private agent: AgentLoop | undefined;
  private mcpStartup: Promise<McpStartupSummary> | undefined;

  constructor(private readonly options: AgentSessionOptions) {
    this.pool = options.pool;
    for (const tool of createBuiltinTools({ cwd: options.cwd })) this.registry.register(tool);
  }

  get model(): string {
    return this.options.model;
  }

  get hasCredentials(): boolean {
    return hasCredentials(this.options.env);
  }

  /**
   * Connects every server and registers its tools; started once, awaited by whoever needs it.
   * Never rejects: a server's failure is in its status.
   */
  connectMcp(signal?: AbortSignal): Promise<McpStartupSummary> {
    this.mcpStartup ??= this.pool.connectAll({ signal }).then(() => {
      const registered = this.pool.registerInto(this.registry);
      return summarizeMcpStartup(this.pool.status(), registered, this.pool.authContext?.loginHint);
    });
    return this.mcpStartup;
  }

  /** The agent, or the line to show when there are no credentials. */
  agentOrMissingKey(): AgentLoop | { missing: string } {
    if (this.agent) return this.agent;
    if (!this.hasCredentials) return { missing: MISSING_CREDENTIALS_MESSAGE };
    this.agent = new AgentLoop({
      client: createModelClient(),
      model: this.options.model,
      registry: this.registry,
      permissions: this.options.permissions,
      system: systemPrompt({ cwd: this.options.cwd }),
      maxTurns: this.options.maxTurns,
      retry: this.options.retry,
    });
    return this.agent;
  }

  /** Starts a new conversation; tools and servers stay. */
  clearConversation(): void {
    this.agent?.conversation.clear();
  }

  close(): Promise<void> {
    return this.pool.closeAll();
  }
}
