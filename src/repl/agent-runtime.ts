import { AgentLoop } from "../agent/agent-loop.ts";
import { MISSING_CREDENTIALS_MESSAGE } from "../agent/agent-error.ts";
import { createBuiltinTools } from "../agent/builtin-tools.ts";
import { createModelClient, hasCredentials } from "../agent/model-client.ts";
import type { PermissionGate } from "../agent/permission.ts";
import type { RetryPolicy } from "../agent/retry-policy.ts";
import type { UsageMeter } from "../agent/usage-meter.ts";
import type { ProjectMemory } from "../agent/project-memory.ts";
import { TodoList } from "../agent/todo-list.ts";
import { AgentHooks } from "../agent/hooks/agent-hooks.ts";
import type { HooksConfig } from "../agent/hooks/hook-config.ts";
import { HookRunner } from "../agent/hooks/hook-runner.ts";
import { loadAgentTypes, type AgentType } from "../agent/subagents/agent-types.ts";
import { SubagentRunner } from "../agent/subagents/subagent-runner.ts";
import { catCodeHome } from "../config/app-home.ts";
import { basename, dirname, join } from "node:path";
import { FileCheckpoints } from "../agent/checkpoints/file-checkpoints.ts";
import { thinkingMisfit } from "../agent/thinking-setting.ts";
import { ToolRegistry } from "../agent/tool-registry.ts";
import { ListMcpResourcesTool, type ServerPool, ReadMcpResourceTool } from "../mcp/index.ts";
import { summarizeMcpStartup, type McpStartupSummary } from "./mcp-startup.ts";
import { loadMemoryFiles, liveSystemPrompt } from "./live-system-prompt.ts";
import { ServerNotes } from "./server-notes.ts";

export interface AgentRuntimeOptions {
  model: string;
  cwd: string;
  pool: ServerPool;
  permissions: PermissionGate;
  maxTurns?: number;
  retry?: Partial<RetryPolicy>;
  env?: Record<string, string | undefined>;
  /** Hears the agent once it is made (the session file starts recording it). */
  onAgent?: (agent: AgentLoop) => void;
  /** Extended thinking and the max_tokens that leaves room for it (thinking-setting.ts). */
  thinking?: { budgetTokens: number };
  /** settings.json's `autoCompact` (default true): compact near the model's context window. */
  autoCompact?: boolean;
  maxTokens?: number;
  /** settings.json's `hooks` (the user's and the trusted project's). */
  hooks?: HooksConfig;
  /** The saved session hooks are told of (session_id, transcript_path). */
  session?: () => { sessionId?: string; transcriptPath?: string };
}

/**
 * What the REPL and print mode share: one registry holding the built-in tools and, once the servers
 * are up, the MCP tools; the pool that owns the servers; and the agent, made when first needed, so
 * that a missing API key only matters when a prompt is sent.
 */
export class AgentRuntime {
  readonly registry = new ToolRegistry();
  readonly pool: ServerPool;
  /** The memory files in the system prompt, read at start (`/memory`). */
  readonly memory: ProjectMemory;
  /** What the model is told in its next turn of servers that went away or came back. */
  readonly serverNotes = new ServerNotes();
  /** The model's todo list (todo_write), shown under the status line; back from the conversation on resume. */
  readonly todos = new TodoList();
  /** Claude Code's hooks; with none configured every event is a no-op. */
  readonly hooks: AgentHooks;
  /** The subagent types (built-in, the project's and the user's `agents/*.md`), read at start (`/agents`). */
  readonly agentTypes: readonly AgentType[];
  /** The files write_file and edit_file changed, per prompt, kept beside the session file (/rewind). */
  readonly checkpoints: FileCheckpoints;
  /** Agent files that could not be read, one line each. */
  readonly agentTypeWarnings: readonly string[];
  private client: ReturnType<typeof createModelClient> | undefined;
  private agent: AgentLoop | undefined;
  private mcpStartup: Promise<McpStartupSummary> | undefined;
  private readonly resourceTools = [
    new ListMcpResourcesTool(() => this.pool.serversOffering("resources")),
    new ReadMcpResourceTool(() => this.pool.serversOffering("resources")),
  ];

  constructor(private readonly options: AgentRuntimeOptions) {
    this.pool = options.pool;
    this.memory = loadMemoryFiles(options.cwd, options.env);
    const runner = new HookRunner({ config: () => options.hooks ?? {}, cwd: options.cwd, env: options.env, session: options.session });
    this.hooks = new AgentHooks(runner, options.cwd);
    this.checkpoints = new FileCheckpoints(() => checkpointsPath(options.session?.().transcriptPath));
    const env = options.env ?? process.env;
    const loaded = loadAgentTypes({ cwd: options.cwd, home: env.HOME, catCodeHome: catCodeHome(env) });
    this.agentTypes = loaded.types;
    this.agentTypeWarnings = loaded.warnings;
    const subagents = new SubagentRunner({
      parent: () => {
        const agent = this.agentOrMissingKey();
        return "missing" in agent || !this.client ? undefined : { client: this.client, model: agent.model, usage: agent.usage };
      },
      registry: this.registry,
      permissions: options.permissions,
      hooks: this.hooks,
      types: () => this.agentTypes,
      cwd: options.cwd,
    });
    for (const tool of createBuiltinTools({ cwd: options.cwd, todos: this.todos, subagents, checkpoints: this.checkpoints })) this.registry.register(tool);
    // A crashed stdio server comes back once by itself; a session says so (see server-notes.ts).
    this.pool.restartCrashedServers();
    this.pool.on("server", (event) => {
      this.syncResourceTools();
      this.serverNotes.heard(event);
    });
  }

  get model(): string {
    return this.options.model;
  }

  /** The session's token usage; undefined until the agent exists (nothing was sent yet). */
  get usage(): UsageMeter | undefined {
    return this.agent?.usage;
  }

  /** Switches the model from the next request; the reason when the thinking choice does not fit it. */
  switchModel(id: string): string | undefined {
    const misfit = thinkingMisfit(id, { thinking: this.options.thinking, maxTokens: this.options.maxTokens });
    if (misfit) return misfit;
    this.options.model = id;
    if (this.agent) this.agent.model = id;
    return undefined;
  }

  get hasCredentials(): boolean {
    return hasCredentials(this.options.env);
  }

  /**
   * Connects every server; each one's tools join the registry the moment it is ready. Started once;
   * resolves when every server is connected or has failed (each within its own timeout), which is
   * what print mode and piped input wait for. Never rejects: a server's failure is in its status.
   */
  connectMcp(signal?: AbortSignal): Promise<McpStartupSummary> {
    if (!this.mcpStartup) {
      this.pool.registerInto(this.registry);
      this.mcpStartup = this.pool.connectAll({ signal }).then(() => {
        this.syncResourceTools();
        const statuses = this.pool.status();
        const registered = statuses.reduce((sum, status) => sum + (status.state === "connected" ? status.tools.length : 0), 0);
        return summarizeMcpStartup(statuses, registered, this.pool.authContext?.loginHint);
      });
    }
    return this.mcpStartup;
  }

  /** Waits for `connectMcp` (piped input's first prompt does), or until `signal` aborts. */
  async serversSettled(signal: AbortSignal): Promise<void> {
    const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    await Promise.race([this.connectMcp(), aborted]);
  }

  /**
   * list_mcp_resources and read_mcp_resource are offered while at least one connected server offers
   * resources; called after startup and whenever a server's tools change (a reconnect, a sign-in).
   */
  syncResourceTools(): void {
    const wanted = this.pool.serversOffering("resources").length > 0;
    for (const tool of this.resourceTools) {
      if (wanted && !this.registry.has(tool.name)) this.registry.register(tool);
      else if (!wanted && this.registry.get(tool.name) === tool) this.registry.unregister(tool.name);
    }
  }

  /** The agent, or the line to show when there are no credentials. */
  agentOrMissingKey(): AgentLoop | { missing: string } {
    if (this.agent) return this.agent;
    if (!this.hasCredentials) return { missing: MISSING_CREDENTIALS_MESSAGE };
    this.client = createModelClient();
    this.agent = new AgentLoop({
      client: this.client,
      model: this.options.model,
      registry: this.registry,
      permissions: this.options.permissions,
      system: liveSystemPrompt({ cwd: this.options.cwd, memory: this.memory, pool: this.pool }),
      thinking: this.options.thinking,
      autoCompact: this.options.autoCompact,
      maxTokens: this.options.maxTokens,
      maxTurns: this.options.maxTurns,
      retry: this.options.retry,
      hooks: this.hooks,
    });
    this.options.onAgent?.(this.agent);
    // A resumed session was loaded by onAgent: its list is the last one its todo_write calls wrote.
    this.todos.restore(this.agent.conversation.snapshot());
    return this.agent;
  }

  /** Starts a new conversation; tools and servers stay. */
  clearConversation(): void {
    this.agent?.conversation.clear();
    this.todos.clear();
    void this.hooks.sessionStart("clear");
  }

  close(): Promise<void> {
    return this.pool.closeAll();
  }
}

/**
 * A session's checkpoints: `<home>/checkpoints/<project>/<id>.jsonl` beside `<home>/sessions/<project>/<id>.jsonl`,
 * out of the sessions folder, which holds sessions only.
 */
function checkpointsPath(transcript: string | undefined): string | undefined {
  if (!transcript) return undefined;
  const project = dirname(transcript);
  return join(dirname(dirname(project)), "checkpoints", basename(project), basename(transcript));
}
