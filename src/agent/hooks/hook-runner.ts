import { systemClock, type Clock } from "../../system/clock.ts";
import { runBash } from "../tools/run-bash.ts";
import { DEFAULT_HOOK_TIMEOUT_S, matcherMatches, type HookEvent, type HooksConfig } from "./hook-config.ts";

/** Per stream: a hook's answer is a line of JSON or a message, not a log. */
const MAX_HOOK_OUTPUT_CHARS = 64_000;

/** What one hook command did. */
export interface HookRun {
  command: string;
  /** Undefined when it could not be started, or was killed at its timeout. */
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Its stdout, when that is a JSON object (Claude Code's structured answer). */
  json?: Record<string, unknown>;
  /** Why it could not run (no bash). */
  failure?: string;
}

export interface HookRunnerOptions {
  config: () => HooksConfig;
  cwd: string;
  /** The environment hooks run in (CLAUDE_PROJECT_DIR is added). */
  env?: Record<string, string | undefined>;
  /** session_id and transcript_path, as they are when the hook runs. */
  session?: () => { sessionId?: string; transcriptPath?: string };
  clock?: Clock;
}

/**
 * Runs the hook commands that match an event, all at once, each with Claude Code's JSON on stdin
 * (session_id, transcript_path, cwd, hook_event_name and the event's own fields). Each has its
 * own timeout, after which its whole process group is killed; a hook that hangs or crashes is a
 * result like any other, never a hang of the agent. Identical commands run once.
 */
export class HookRunner {
  private readonly clock: Clock;

  constructor(private readonly options: HookRunnerOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** The hooks in force now (for /hooks). */
  config(): HooksConfig {
    return this.options.config();
  }

  /** Whether any hook is configured for the event (so callers can skip building its input). */
  has(event: HookEvent): boolean {
    return (this.options.config()[event]?.length ?? 0) > 0;
  }

  async run(event: HookEvent, fields: Record<string, unknown>, matchValue?: string, signal?: AbortSignal): Promise<HookRun[]> {
    const groups = (this.options.config()[event] ?? []).filter((group) => matcherMatches(group.matcher, matchValue));
    const commands = new Map<string, number>();
    for (const group of groups) for (const hook of group.hooks) if (!commands.has(hook.command)) commands.set(hook.command, hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S);
    if (commands.size === 0) return [];
    const session = this.options.session?.() ?? {};
    const input = JSON.stringify({ session_id: session.sessionId ?? "", transcript_path: session.transcriptPath ?? "", cwd: this.options.cwd, hook_event_name: event, ...fields });
    return Promise.all([...commands].map(([command, seconds]) => this.runOne(command, seconds, input, signal)));
  }

  private async runOne(command: string, seconds: number, input: string, signal?: AbortSignal): Promise<HookRun> {
    const stop = new AbortController();
    let timedOut = false;
    const timer = this.clock.setTimeout(() => {
      timedOut = true;
      stop.abort();
    }, seconds * 1000);
    const onAbort = () => stop.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const env = { ...definedOnly(this.options.env ?? process.env), CLAUDE_PROJECT_DIR: this.options.cwd, CAT_CODE_PROJECT_DIR: this.options.cwd };
      const run = await runBash(command, { cwd: this.options.cwd, env, limit: MAX_HOOK_OUTPUT_CHARS, signal: stop.signal, stdin: input });
      if (!run.ok) return { command, exitCode: undefined, stdout: "", stderr: "", timedOut: false, failure: run.reason };
      const stdout = run.stdout.text;
      return { command, exitCode: run.stopped ? undefined : run.exitCode, stdout, stderr: run.stderr.text, timedOut, json: jsonObject(stdout) };
    } finally {
      this.clock.clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function jsonObject(stdout: string): Record<string, unknown> | undefined {
  const trimmed = stdout.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const value = JSON.parse(trimmed);
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
