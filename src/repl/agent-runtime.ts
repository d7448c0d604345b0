import { untilAborted } from "../system/until-aborted.ts";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { AgentLoop } from "../agent/agent-loop.ts";
import { MISSING_CREDENTIALS_MESSAGE } from "../agent/agent-error.ts";
import { createBuiltinTools } from "../agent/builtin-tools.ts";
import { createModelClient, hasCredentials } from "../agent/model-client.ts";
import type { PermissionGate } from "../agent/permission.ts";
import { PermissionModeState } from "../agent/permission-mode.ts";
import { ExitPlanModeTool, type PlanReview } from "../agent/tools/exit-plan-mode-tool.ts";
import type { RetryPolicy } from "../agent/retry-policy.ts";
import type { UsageMeter } from "../agent/usage-meter.ts";
import type { ProjectMemory } from "../agent/project-memory.ts";
import { TodoList } from "../agent/todo-list.ts";
import { AgentHooks } from "../agent/hooks/agent-hooks.ts";
import type { HooksConfig } from "../agent/hooks/hook-config.ts";
import { HookRunner } from "../agent/hooks/hook-runner.ts";
import { loadAgentTypes, type AgentType } from "../agent/subagents/agent-types.ts";
import { readProjectTrust } from "../settings/project-trust.ts";
import { SubagentRunner } from "../agent/subagents/subagent-runner.ts";
import { catCodeHome, claudeHome } from "../config/app-home.ts";
import { thinkingMisfit } from "../agent/thinking-setting.ts";
import { resolveToolSearchMode } from "../agent/tool-search-mode.ts";
import { RequestTools } from "../agent/request-tools.ts";
import { log } from "../log.ts";
import { ToolRegistry } from "../agent/tool-registry.ts";
import { CHARS_PER_TOKEN, DEFAULT_OUTPUT_TOKENS, OutputLimit, TOOL_OUTPUT_LIMIT } from "../agent/tools/output-limit.ts";
import { ListMcpResourcesTool, McpToolAdapter, type ServerPool, ReadMcpResourceTool } from "../mcp/index.ts";
import { summarizeMcpStartup, type McpStartupSummary } from "./mcp-startup.ts";
import { loadMemoryFiles, liveSystemPrompt } from "./live-system-prompt.ts";
import { ServerNotes } from "./server-notes.ts";
import { poolServerWaiter } from "./server-waiter.ts";
import type { ServerWaiter } from "../agent/tools/wait-for-servers-tool.ts";
import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { SessionCheckpoints } from "../agent/checkpoints/session-checkpoints.ts";

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
  /** settings.json's `toolSearch`; ENABLE_TOOL_SEARCH in `env` overrides it. */
  toolSearch?: string;
  /** Tokens of one MCP tool result the model gets before it is cut (default DEFAULT_OUTPUT_TOKENS). */
  maxMcpOutputTokens?: number;
  /** Where the session saves outputs too large for the model; none: they are cut without saving. */
  outputsFolder?: () => string | undefined;
  /** The saved session's own folder, where each prompt's checkpoint is kept; none: files are not checkpointed. */
  sessionFolder?: () => string | undefined;
  /**
   * Prompts may be sent while servers still connect (the REPL; print mode waits for them first):
   * the model is told which, and gets wait_for_mcp_servers, when there are servers at all.
   */
  promptsBeforeServers?: boolean;
  /** The session's permission mode (the gate reads the same one); absent: default, never changed. */
  mode?: PermissionModeState;
  /** Shows the model's plan to the user (exit_plan_mode); absent (print mode): nobody can accept one. */
  planReview?: PlanReview;
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
  /** Which tools each request carries: all, or cat-code's own, the tool search and what it loaded. */
  readonly requestTools: RequestTools;
  /** The system prompt as the next request sends it; `false` leaves the memory files out (/context). */
  readonly systemPrompt: (withMemory?: boolean) => string;
  readonly mode: PermissionModeState;
  /** The model's todo list (todo_write), shown under the status line; back from the conversation on resume. */
  readonly todos = new TodoList();
  /** Runs the task tool's subagents: what runs now is `subagents.running` (the REPL's rows, Esc). */
  readonly subagents: SubagentRunner;
  /** Claude Code's hooks; with none configured every event is a no-op. */
  readonly hooks: AgentHooks;
  /** The subagent types (built-in, the project's and the user's `agents/*.md`), read at start (`/agents`). */
  readonly agentTypes: readonly AgentType[];
  /** Agent files that could not be read, one line each. */
  readonly agentTypeWarnings: readonly string[];
  private client: ReturnType<typeof createModelClient> | undefined;
  private agent: AgentLoop | undefined;
  /** What wait_for_mcp_servers waits on; none without servers (the tool is then not offered). */
  private readonly serverWaiter: ServerWaiter | undefined;
  /** Every tool result's limit: MCP tools' from MAX_MCP_OUTPUT_TOKENS, built-ins' the default. */
  readonly outputLimit: OutputLimit;
  private mcpStartup: Promise<McpStartupSummary> | undefined;
  /** What write_file and edit_file changed, per prompt, for /rewind. */
  readonly checkpoints: SessionCheckpoints;
  private readonly resourceTools = [
    new ListMcpResourcesTool(() => this.pool.serversOffering("resources")),
    new ReadMcpResourceTool(() => this.pool.serversOffering("resources")),
  ];

  constructor(private readonly options: AgentRuntimeOptions) {
    this.pool = options.pool;
    this.serverWaiter = options.promptsBeforeServers && options.pool.size > 0 ? poolServerWaiter(options.pool) : undefined;
    this.memory = loadMemoryFiles(options.cwd, options.env);
    const runner = new HookRunner({ config: () => options.hooks ?? {}, cwd: options.cwd, env: options.env, session: options.session });
    this.hooks = new AgentHooks(runner, options.cwd);
    this.checkpoints = new SessionCheckpoints({ sessionFolder: () => options.sessionFolder?.() });
    const env = options.env ?? process.env;
    // A project agent's model is trusted as the project settings' model is (same approvals, same key).
    // Read only when a project agent names a model: most sessions have none.
    let modelTrust: ReturnType<typeof readProjectTrust>["trust"] | undefined;
    const projectModelTrusted = (key: string) => (modelTrust ??= readProjectTrust(options.cwd, env, "projectSettings").trust).trusted.has(key);
    const loaded = loadAgentTypes({ cwd: options.cwd, catCodeHome: catCodeHome(env), claudeHome: claudeHome(env), projectModelTrusted });
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
    const builtins = createBuiltinTools({ cwd: options.cwd, savedOutputs: () => options.outputsFolder?.(), servers: this.serverWaiter, todos: this.todos, subagents, journal: this.checkpoints });
    for (const tool of builtins) this.registry.register(tool);
    const searchMode = resolveToolSearchMode(options.toolSearch, options.env ?? process.env, (line) => log.warn(line));
    this.requestTools = new RequestTools(this.registry, searchMode);
    this.subagents = subagents;
    this.mode = options.mode ?? new PermissionModeState();
    this.systemPrompt = liveSystemPrompt({ cwd: options.cwd, memory: this.memory, pool: this.pool, mode: this.mode });
    const mcpChars = (options.maxMcpOutputTokens ?? DEFAULT_OUTPUT_TOKENS) * CHARS_PER_TOKEN;
    this.outputLimit = new OutputLimit({
      maxChars: (name) => (this.registry.get(name) instanceof McpToolAdapter ? mcpChars : TOOL_OUTPUT_LIMIT),
      folder: () => options.outputsFolder?.(),
    });
    // exit_plan_mode is offered while plan mode is on, and only then: elsewhere it means nothing.
    const planTool = new ExitPlanModeTool(this.mode, options.planReview);
    const offerPlanTool = () => {
      if (this.mode.mode === "plan" && !this.registry.has(planTool.name)) this.registry.register(planTool);
      else if (this.mode.mode !== "plan" && this.registry.get(planTool.name) === planTool) this.registry.unregister(planTool.name);
    };
    offerPlanTool();
    this.mode.onChange(offerPlanTool);
    // A crashed stdio server comes back once by itself; a session says so (see server-notes.ts).
    this.pool.restartCrashedServers();
    this.pool.on("server", (event) => {
      this.syncResourceTools();
      this.serverNotes.heard(event);
    });
  }

  /** The project folder the session runs in. */
  get cwd(): string {
    return this.options.cwd;
  }

  /** Reads the memory files again (after /memory's editor): the system prompt reads them at each request. */
  reloadMemory(): void {
    Object.assign(this.memory, loadMemoryFiles(this.options.cwd, this.options.env));
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
    await untilAborted(this.connectMcp(), signal);
  }

  /**
   * list_mcp_resources and read_mcp_resource are offered while at least one connected server offers
   * resources; called after startup and whenever a server's tools change (a reconnect, a sign-in).
   */
  syncResourceTools(): void {
    const wanted = this.pool.offeredBySome("resources");
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
      system: () => this.systemPrompt(),
      thinking: this.options.thinking,
      autoCompact: this.options.autoCompact,
      maxTokens: this.options.maxTokens,
      maxTurns: this.options.maxTurns,
      retry: this.options.retry,
      requestTools: this.requestTools,
      outputLimit: this.outputLimit,
      hooks: this.hooks,
    });
    this.options.onAgent?.(this.agent);
    // A resumed session was loaded by onAgent: its list is the last one its todo_write calls wrote.
    this.todos.restore(this.agent.conversation.snapshot());
    return this.agent;
  }

  /** The conversation so far, as the next request sends it (none before the first prompt). */
  conversationMessages(): MessageParam[] {
    return this.agent?.conversation.snapshot() ?? [];
  }

  /**
   * A prompt as the model gets it: after the notes of servers that came or went, and of those still
   * connecting (with the tool that waits for them).
   */
  notedPrompt(prompt: string | PromptBlock[]): string | PromptBlock[] {
    if (this.serverWaiter) this.serverNotes.connecting(this.serverWaiter.connecting(), this.serverWaiter.boundMs);
    return this.serverNotes.prepend(prompt);
  }

  /**
   * A prompt is about to be sent: the files its tools change from now on are checkpointed under it,
   * and the conversation as it is now is where /rewind cuts back to. The list names it by its text
   * (a server's prompt by its first text block).
   */
  beginCheckpoint(prompt: string | PromptBlock[]): void {
    const text = typeof prompt === "string" ? prompt : (prompt.find((block) => block.type === "text")?.text ?? "(a prompt without text)");
    this.checkpoints.beginPrompt(text, this.conversationMessages());
  }

  /** The prompt begun last never ran (blocked, given up before it was sent, or failed): /rewind does not list it. */
  abandonCheckpoint(): void {
    this.checkpoints.abandonPrompt();
  }

  /** Starts a new conversation: nothing loaded by tool search, no todo list; tools and servers stay. */
  clearConversation(): void {
    this.agent?.conversation.clear();
    this.conversationReplaced("clear", []);
  }

  /**
   * The conversation was replaced (/clear, /resume, /rewind's conversation part): what lives beside
   * it follows it. The todo list becomes the one the new conversation left; `loadedTools`, when given,
   * become the deferred tools loaded (a rewind gives none: the loaded set stays, a superset of what
   * the kept history names, and the cached prefix of the request's tools with it); SessionStart hooks
   * hear a new session (`clear`, `resume`), not a rewind.
   */
  conversationReplaced(source: "clear" | "resume" | "rewind", loadedTools?: string[]): void {
    if (loadedTools) this.requestTools.restore(loadedTools);
    this.todos.restore(this.conversationMessages());
    if (source !== "rewind") void this.hooks.sessionStart(source);
  }

  close(): Promise<void> {
    return this.pool.closeAll();
  }
}
