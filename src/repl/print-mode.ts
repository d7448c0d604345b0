import { AgentError } from "../agent/agent-error.ts";
import type { AgentObserver } from "../agent/agent-observer.ts";
import type { RunOutcome } from "../agent/agent-loop.ts";
import { hookStopText } from "../agent/hooks/agent-hooks.ts";
import { allowAll, declineAll } from "../agent/permission.ts";
import type { PermissionRules } from "../agent/permission-rules.ts";
import { PermissionModeState, type PermissionMode } from "../agent/permission-mode.ts";
import { withPolicy } from "../agent/permission-policy.ts";
import { openConversationLog, recordInto, type ResumedConversation } from "../agent/conversation-log/conversation-recording.ts";
import { savedOutputsFolder, sessionFilesFolder } from "../agent/conversation-log/conversation-log-paths.ts";
import type { LoadedSettings } from "../settings/settings.ts";
import { CliError, ExitCode } from "../terminal/cli-error.ts";
import { printResult } from "../terminal/output.ts";
import { declinedElicitation } from "../terminal/declined-elicitation.ts";
import { StatusLine } from "../terminal/status-line.ts";
import { firstLine, sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { log } from "../log.ts";
import type { ServerPool } from "../mcp/index.ts";
import { AgentRuntime } from "./agent-runtime.ts";
import { listenToPool } from "./pool-listeners.ts";
import { signInNote } from "./mcp-startup.ts";
import { cliLoginHint } from "../terminal/render-status.ts";
import { TurnRenderer } from "./turn-renderer.ts";
import { expandResourceMentions } from "./resource-mentions.ts";
import { resultObject, StreamJsonEvents, writeJsonLine, type OutputFormat, type PrintResult } from "./print-output.ts";
import { costOf, type UsageMeter } from "../agent/usage-meter.ts";
import { addUsage, emptyUsage, type TokenUsage } from "../agent/usage.ts";

export interface PrintOptions {
  prompt: string;
  model: string;
  cwd: string;
  pool: ServerPool;
  allowAll: boolean;
  maxTurns?: number;
  /** Extended thinking and the max_tokens that leaves room for it (src/cli/agent-startup.ts). */
  thinking?: { budgetTokens: number };
  maxTokens?: number;
  /** CAT_CODE_MCP_STARTUP_TIMEOUT: a cap on the wait for the servers; without it each is waited for up to its own timeout. */
  startupTimeoutMs?: number;
  outputFormat?: OutputFormat;
  /** CAT_CODE_HOME: the session is saved under it, so `--resume <id>` can go on from this run. */
  home: string;
  resumed?: ResumedConversation;
  /** settings.json's rules: deny always holds; allow lets a call run without --allow-all. */
  settings?: LoadedSettings;
  /** --allowedTools and --disallowedTools (checked already), added to the settings' rules. */
  rules?: PermissionRules;
  /** Tokens of one MCP tool result the model gets (MAX_MCP_OUTPUT_TOKENS or the setting); default 25,000. */
  maxMcpOutputTokens?: number;
  /** --permission-mode, else settings' permissions.defaultMode: plan refuses writes, acceptEdits runs edits inside the project. */
  permissionMode?: PermissionMode;
}

/**
 * `cat-code -p "<prompt>"`: one conversation to its end, the final text on stdout (or a JSON result,
 * or a JSON event per line), tool calls on stderr. There is no second turn, so it waits for the
 * servers first; with nobody to ask, tools that need permission are declined unless --allow-all,
 * an --allowedTools rule, the read-only list or the permission mode (acceptEdits) lets them run.
 */
export async function runPrint(options: PrintOptions): Promise<number> {
  const started = performance.now();
  const format = options.outputFormat ?? "text";
  const gate = options.allowAll ? allowAll : declineAll;
  // Neither settings nor flags change during a run: the rules are combined once.
  const rules = combinedRules(options.settings?.settings.permissions, options.rules);
  // Nobody can accept a plan here: in plan mode the run ends with the plan as its answer.
  const mode = new PermissionModeState(options.permissionMode);
  const runtime = new AgentRuntime({
    mode,
    model: options.model,
    cwd: options.cwd,
    pool: options.pool,
    maxTurns: options.maxTurns,
    thinking: options.thinking,
    maxTokens: options.maxTokens,
    autoCompact: options.settings?.settings.autoCompact,
    toolSearch: options.settings?.settings.toolSearch,
    maxMcpOutputTokens: options.maxMcpOutputTokens ?? options.settings?.settings.maxMcpOutputTokens,
    outputsFolder: () => savedOutputsFolder(file.path),
    permissions: withPolicy({ rules: () => rules, mode: () => mode.mode, cwd: options.cwd }, gate),
    hooks: options.settings?.settings.hooks,
    session: () => ({ sessionId: file.id, transcriptPath: file.path }),
    sessionFolder: () => sessionFilesFolder(file.path),
  });
  // Tool calls go to stderr; a running tool's progress too, when stderr is a terminal.
  const renderer = new TurnRenderer(undefined, process.stderr, undefined, new StatusLine(process.stderr));
  // Nobody is there to answer a server's question: decline it, and say so between the run's lines.
  listenToPool(runtime.pool, { elicitation: declinedElicitation((line) => renderer.notice(line)), serverLog: (line) => renderer.notice(line) });
  for (const warning of runtime.memory.warnings) log.warn(warning);
  runtime.hooks.onNotice((line) => renderer.notice(`⎿ ${sanitizeForTerminal(line)}`));
  const file = openConversationLog({ home: options.home, cwd: options.cwd, model: options.model, resumed: options.resumed, onError: (line) => log.warn(line) });
  void runtime.hooks.sessionStart(options.resumed ? "resume" : "startup");
  try {
    const agent = runtime.agentOrMissingKey();
    if ("missing" in agent) throw CliError.usage(agent.missing);
    recordInto(file, agent, options.resumed);
    const events = format === "stream-json" ? new StreamJsonEvents(file.id) : undefined;
    if (events) {
      const save = agent.conversation.onChange;
      agent.conversation.onChange = (change) => {
        save?.(change);
        events.change(change);
      };
    }

    const timeoutMs = options.startupTimeoutMs;
    const startup = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    await runtime.connectMcp(startup);
    for (const status of runtime.pool.status()) {
      if (status.state !== "failed" && status.state !== "invalid") continue;
      // Our own deadline shows up as a cancelled handshake; say what really happened.
      const reason = startup?.aborted && /cancel/i.test(status.reason) ? `not ready within ${timeoutMs} ms` : firstLine(status.reason);
      log.warn(`MCP server '${status.name}' is not available: ${reason} (see cat-code mcp list)`);
    }
    // Not failures: each is one command away, and that command is what to say.
    const signIns = signInNote(runtime.pool.status().filter((s) => s.state === "needs-auth").map((s) => s.name), runtime.pool.authContext?.loginHint ?? cliLoginHint);
    if (signIns) log.warn(`MCP: ${signIns}`);
    events?.init({
      model: agent.model,
      cwd: options.cwd,
      tools: runtime.registry.list().map((tool) => tool.name),
      servers: runtime.pool.status().map((status) => ({ name: status.name, status: status.state })),
    });

    // `@server:uri` attaches the resource; one that cannot be read stops the run before anything is sent.
    const expanded = await expandResourceMentions(options.prompt, runtime.pool);
    if ("error" in expanded) throw CliError.unavailable(`${expanded.error} (nothing was sent)`);
    for (const attached of expanded.attached) renderer.notice(`⎿ attached ${sanitizeForTerminal(attached)}`);

    const before = agent.usage.byModel();
    let requests = 0;
    const summary = (subtype: string, isError: boolean, result: string): PrintResult => ({
      subtype,
      isError,
      result,
      ...usageSince(before, agent.usage),
      conversationId: file.id,
      numTurns: requests,
      durationMs: Math.round(performance.now() - started),
    });
    let outcome: RunOutcome;
    try {
      runtime.beginCheckpoint(options.prompt);
      outcome = await agent.run(expanded.attached.length ? expanded.blocks : options.prompt, { observer: counting(renderer, (n) => (requests = n)) });
      // No request: a hook blocked it. A later --resume's /rewind must not list it.
      if (outcome.requests === 0) runtime.abandonCheckpoint();
    } catch (error) {
      if (!(error instanceof AgentError)) throw error;
      runtime.abandonCheckpoint();
      if (format === "text") throw CliError.unavailable(error.message);
      renderer.endLine();
      await finish(events, summary("error_during_execution", true, error.message));
      return ExitCode.Unavailable;
    } finally {
      renderer.endLine();
    }
    if (format !== "text") {
      const [subtype, code] = outcome.status === "done" ? ["success", ExitCode.Ok] : outcome.status === "max_turns" ? ["error_max_turns", ExitCode.ToolError] : ["error_during_execution", ExitCode.Unavailable];
      const text = "text" in outcome ? outcome.text : outcome.status === "blocked" ? `a UserPromptSubmit hook blocked the prompt: ${outcome.reason}` : outcome.status === "stopped" ? hookStopText(outcome) : `the run ended: ${outcome.status}`;
      await finish(events, summary(subtype, code !== ExitCode.Ok, text));
      return code;
    }
    if (outcome.status === "done") {
      await printResult(outcome.text);
      return ExitCode.Ok;
    }
    if (outcome.status === "max_turns") {
      if (outcome.text) await printResult(outcome.text);
      // Not a tool error as such, but the run did not finish: a script must not take it for an answer.
      console.error(`error: stopped after ${outcome.requests} model requests without a final answer (raise --max-turns)`);
      return ExitCode.ToolError;
    }
    if (outcome.status === "blocked") console.error(`error: a UserPromptSubmit hook blocked the prompt: ${sanitizeForTerminal(outcome.reason)}`);
    if (outcome.status === "stopped") console.error(`error: ${sanitizeForTerminal(hookStopText(outcome))}`);
    return ExitCode.Unavailable;
  } finally {
    file.close();
    await runtime.close();
  }
}

function finish(events: StreamJsonEvents | undefined, result: PrintResult): Promise<void> {
  return events ? events.result(result) : writeJsonLine(resultObject(result));
}

/** The renderer, also telling `onRequest` each model request's number (num_turns, even when the run fails). */
function counting(observer: AgentObserver, onRequest: (request: number) => void): AgentObserver {
  return new Proxy(observer, {
    get(target, key) {
      if (key === "onModelRequest") {
        return (request: number) => {
          onRequest(request);
          target.onModelRequest?.(request);
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** One list each: a deny from either source holds over an allow from the other. */
function combinedRules(settings: PermissionRules | undefined, flags: PermissionRules | undefined): PermissionRules {
  const both = (list: "allow" | "deny" | "ask") => [...(settings?.[list] ?? []), ...(flags?.[list] ?? [])];
  return { allow: both("allow"), deny: both("deny"), ask: both("ask") };
}

type ByModel = ReturnType<UsageMeter["byModel"]>;

/**
 * What one run used and cost: the meter now, less what it held before (a resumed session's
 * earlier requests are in it too). The cost is null when a model used has no known price.
 */
function usageSince(before: ByModel, meter: UsageMeter): { usage: TokenUsage; costUsd: number | null } {
  let usage = emptyUsage();
  let costUsd: number | null = 0;
  for (const entry of meter.byModel()) {
    const earlier = before.find((b) => b.model === entry.model)?.usage ?? emptyUsage();
    const spent: TokenUsage = {
      input: entry.usage.input - earlier.input,
      output: entry.usage.output - earlier.output,
      cacheRead: entry.usage.cacheRead - earlier.cacheRead,
      cacheWrite: entry.usage.cacheWrite - earlier.cacheWrite,
    };
    if (spent.input + spent.output + spent.cacheRead + spent.cacheWrite === 0) continue;
    usage = addUsage(usage, spent);
    const cost = costOf(entry.model, spent);
    costUsd = cost === undefined || costUsd === null ? null : costUsd + cost;
  }
  return { usage, costUsd };
}
