import { untilAborted } from "../../system/until-aborted.ts";
import { cutText } from "../../system/cut-text.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import type { ToolResult } from "../tool.ts";
import { claudeToolInput, claudeToolName, fromClaudeToolInput, type HookEvent } from "./hook-config.ts";
import type { HookRun, HookRunner } from "./hook-runner.ts";

/** What PreToolUse hooks decided about a call: deny wins over ask, ask over allow; `input` when one rewrote it. */
export interface PreToolDecision {
  decision?: "allow" | "deny" | "ask";
  reason?: string;
  input?: Record<string, unknown>;
  /** A hook answered `continue: false`: the run stops before the call; its stopReason ("" if none) is for the user. */
  stop?: string;
}

/** What PostToolUse hooks said: feedback for the model, and `stop` (the user's to read) when one answered `continue: false`. */
export interface PostToolOutcome {
  feedback?: string;
  stop?: string;
}

/** A hook stopped the run (Claude Code's `continue: false`): which event, and its stopReason for the user ("" if none). */
export interface HookHalt {
  event: "PreToolUse" | "PostToolUse";
  reason: string;
}

/** What UserPromptSubmit hooks said: the prompt is blocked (the reason is the user's to read), or goes with added context. */
export type PromptSubmission = { blocked: string } | { context: string[] };

/** Text from a hook, shown to the user in one line or a few; cut, since a script may print anything. */
const MAX_NOTICE_CHARS = 2_000;
/** What a hook adds for the model: bounded like a tool's output. */
const MAX_CONTEXT_CHARS = 20_000;

/**
 * Claude Code's hook protocol, event by event, on top of HookRunner: exit 0 is success (stdout may
 * be a JSON answer), exit 2 blocks (stderr is the reason), any other exit is an error the user is
 * told of and that blocks nothing. What is for the user (errors, `systemMessage`, a blocked prompt)
 * goes to the notice listeners; what is for the model is returned.
 */
export class AgentHooks {
  private readonly listeners = new Set<(line: string) => void>();
  /** SessionStart's context, sent with the next prompt. */
  private pendingContext: string[] = [];
  /** A SessionStart still running: the first prompt waits for its context. */
  private starting: Promise<void> = Promise.resolve();

  constructor(
    readonly runner: HookRunner,
    private readonly cwd: string,
  ) {}

  /** Hears lines for the user: a hook that failed or timed out, a hook's systemMessage. Returns the function that stops it. */
  onNotice(listener: (line: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async preToolUse(toolName: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<PreToolDecision> {
    const name = claudeToolName(toolName);
    if (!this.runner.has("PreToolUse")) return {};
    const runs = await this.run("PreToolUse", { tool_name: name, tool_input: claudeToolInput(toolName, input, this.cwd) }, name, signal);
    const rank = { allow: 1, ask: 2, deny: 3 } as const;
    let result: PreToolDecision = {};
    for (const run of runs) {
      const specific = hookSpecific(run);
      let decision: PreToolDecision["decision"];
      let reason: string | undefined;
      if (run.exitCode === 2) [decision, reason] = ["deny", run.stderr.trim()];
      else if (run.exitCode === 0 && run.json) {
        const legacy = run.json.decision === "approve" ? "allow" : run.json.decision === "block" ? "deny" : undefined;
        const chosen = specific.permissionDecision;
        decision = chosen === "allow" || chosen === "deny" || chosen === "ask" ? chosen : legacy;
        reason = text(specific.permissionDecisionReason) ?? text(run.json.reason);
        // Claude Code: `continue: false` stops processing after the hooks, whatever the decision.
        if (run.json.continue === false) result.stop ??= stopReason(run);
        if (isPlainObject(specific.updatedInput) && result.input === undefined) result.input = fromClaudeToolInput(toolName, specific.updatedInput);
      }
      if (decision && rank[decision] > (result.decision ? rank[result.decision] : 0)) result = { ...result, decision, reason };
    }
    if (result.decision === "ask" && result.reason) this.notice(`PreToolUse hook: ${result.reason}`);
    return result;
  }

  /** Feedback for the model after a call ran; `stop` when a hook ends the run there. */
  async postToolUse(toolName: string, input: Record<string, unknown>, result: ToolResult, signal?: AbortSignal): Promise<PostToolOutcome> {
    if (!this.runner.has("PostToolUse")) return {};
    const name = claudeToolName(toolName);
    const response = { output: result.content, is_error: result.isError, success: !result.isError };
    const runs = await this.run("PostToolUse", { tool_name: name, tool_input: claudeToolInput(toolName, input, this.cwd), tool_response: response }, name, signal);
    const feedback = runs.flatMap((run) => {
      if (run.exitCode === 2) return [run.stderr.trim()];
      if (run.exitCode !== 0 || !run.json) return [];
      return [run.json.decision === "block" ? text(run.json.reason) : undefined, text(hookSpecific(run).additionalContext)].filter((t): t is string => !!t);
    });
    const stopping = runs.find((run) => run.exitCode === 0 && run.json?.continue === false);
    return { feedback: feedback.length ? cutText(feedback.join("\n"), MAX_CONTEXT_CHARS) : undefined, stop: stopping ? stopReason(stopping) : undefined };
  }

  /**
   * Waits for a SessionStart still running first (its context goes with this prompt). Esc or Ctrl-C
   * (`signal`) gives up waiting: the prompt is not sent, the hook runs on within its own timeout,
   * and its context goes with the next prompt.
   */
  async userPromptSubmit(prompt: string, signal?: AbortSignal): Promise<PromptSubmission> {
    await untilAborted(this.starting, signal);
    if (signal?.aborted) return { context: [] };
    const context = this.pendingContext.splice(0);
    if (!this.runner.has("UserPromptSubmit")) return { context };
    const runs = await this.run("UserPromptSubmit", { prompt }, undefined, signal);
    for (const run of runs) {
      if (run.exitCode === 2) return { blocked: run.stderr.trim() || "a UserPromptSubmit hook blocked it" };
      if (run.exitCode !== 0) continue;
      if (run.json?.continue === false) return { blocked: stopReason(run) || "a UserPromptSubmit hook stopped it" };
      if (run.json?.decision === "block") return { blocked: text(run.json.reason) ?? "a UserPromptSubmit hook blocked it" };
      const added = run.json ? text(hookSpecific(run).additionalContext) : run.stdout.trim();
      if (added) context.push(cutText(added, MAX_CONTEXT_CHARS));
    }
    return { context };
  }

  /** When the model is done (`lastMessage`: its answer): a reason to go on (for the model), or undefined to let it stop. */
  stop(stopHookActive: boolean, signal?: AbortSignal, lastMessage?: string): Promise<string | undefined> {
    return this.stopEvent("Stop", { stop_hook_active: stopHookActive, last_assistant_message: cutText(lastMessage ?? "", MAX_CONTEXT_CHARS) }, undefined, signal);
  }

  private async stopEvent(event: "Stop" | "SubagentStop", fields: Record<string, unknown>, matchValue: string | undefined, signal?: AbortSignal): Promise<string | undefined> {
    if (!this.runner.has(event)) return undefined;
    const runs = await this.run(event, fields, matchValue, signal);
    // `continue: false` wins over a hook that would send the model on: it stops, and the user reads why.
    const stopping = runs.find((run) => run.exitCode === 0 && run.json?.continue === false);
    if (stopping) {
      const reason = stopReason(stopping);
      if (reason) this.notice(`${event} hook: ${reason}`);
      return undefined;
    }
    for (const run of runs) {
      if (run.exitCode === 2 && run.stderr.trim()) return cutText(run.stderr.trim(), MAX_CONTEXT_CHARS);
      if (run.exitCode === 0 && run.json?.decision === "block") {
        const reason = text(run.json.reason);
        if (reason) return cutText(reason, MAX_CONTEXT_CHARS);
      }
    }
    return undefined;
  }

  /** A session starts (`startup`, `resume`, `clear`): what hooks print is sent with the next prompt. */
  sessionStart(source: "startup" | "resume" | "clear"): Promise<void> {
    if (!this.runner.has("SessionStart")) return Promise.resolve();
    this.starting = this.run("SessionStart", { source }, source).then((runs) => {
      for (const run of runs) {
        if (run.exitCode !== 0) continue;
        const added = run.json ? text(hookSpecific(run).additionalContext) : run.stdout.trim();
        if (added) this.pendingContext.push(cutText(added, MAX_CONTEXT_CHARS));
      }
    });
    return this.starting;
  }

  async preCompact(trigger: "manual" | "auto", instructions: string | undefined): Promise<void> {
    if (this.runner.has("PreCompact")) await this.run("PreCompact", { trigger, custom_instructions: instructions ?? "" }, trigger);
  }

  /** The user is waiting to be asked something (`message` says what); never awaited by the question. Matched on `type`. */
  notification(message: string, type: string): void {
    if (this.runner.has("Notification")) void this.run("Notification", { message: cutText(message, MAX_NOTICE_CHARS), notification_type: type }, type);
  }

  /**
   * The hooks as one subagent sees them: its tool calls go through PreToolUse and PostToolUse like the
   * parent's; its prompt is not the user's (no UserPromptSubmit); its end is SubagentStop, with
   * Claude Code's `agent_id`, `agent_type` (what a matcher matches) and `last_assistant_message`.
   */
  forSubagent(agent: { id: string; type: string }): AgentHooks {
    const view = Object.create(this) as AgentHooks;
    view.userPromptSubmit = async () => ({ context: [] });
    view.stop = (stopHookActive, signal, lastMessage) =>
      this.stopEvent("SubagentStop", { stop_hook_active: stopHookActive, agent_id: agent.id, agent_type: agent.type, last_assistant_message: cutText(lastMessage ?? "", MAX_CONTEXT_CHARS) }, agent.type, signal);
    return view;
  }

  private async run(event: HookEvent, fields: Record<string, unknown>, matchValue?: string, signal?: AbortSignal): Promise<HookRun[]> {
    const runs = await this.runner.run(event, fields, matchValue, signal);
    for (const run of runs) {
      const what = `${event} hook \`${cutText(run.command, 80)}\``;
      if (run.failure) this.notice(`${what} could not run: ${run.failure}`);
      else if (run.timedOut) this.notice(`${what} timed out and was stopped`);
      else if (run.exitCode !== undefined && run.exitCode !== 0 && run.exitCode !== 2) this.notice(`${what} failed (exit ${run.exitCode})${run.stderr.trim() ? `: ${run.stderr.trim()}` : ""}`);
      const message = run.exitCode === 0 ? text(run.json?.systemMessage) : undefined;
      if (message) this.notice(message);
    }
    return runs;
  }

  private notice(line: string): void {
    const shown = cutText(line, MAX_NOTICE_CHARS);
    for (const listener of this.listeners) listener(shown);
  }
}

function hookSpecific(run: HookRun): Record<string, unknown> {
  const specific = run.json?.hookSpecificOutput;
  return isPlainObject(specific) ? specific : {};
}

/** What the user reads when a hook stopped the run: `Stopped by a PreToolUse hook: <stopReason>`. Not sanitized. */
export function hookStopText(halt: HookHalt): string {
  return `Stopped by a ${halt.event} hook${halt.reason ? `: ${halt.reason}` : " (it gave no reason)"}`;
}

/** A `continue: false` answer's stopReason, bounded, for the user; "" when it gave none. */
function stopReason(run: HookRun): string {
  return cutText(text(run.json?.stopReason) ?? "", MAX_NOTICE_CHARS);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
