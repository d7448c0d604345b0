import * as v from "valibot";
import { environmentWithoutOwnSecrets } from "../../system/own-secrets.ts";
import type { Tool, ToolCallPreview, ToolContext, ToolResult } from "../tool.ts";
import { OutputCollector } from "./output-collector.ts";
import { TOOL_OUTPUT_LIMIT } from "./output-limit.ts";
import { runBash } from "./run-bash.ts";
import { errorResult, parseToolInput } from "./tool-input.ts";

const DEFAULT_TIMEOUT_MS = 120_000;
/**
 * What is kept in memory of each stream: its head up to this and its last TOOL_OUTPUT_LIMIT
 * characters. The model gets less (the tool runner's limit); the whole as kept is saved for it.
 */
export const KEPT_OUTPUT_CHARS = 4 * 2 ** 20;
const MAX_TIMEOUT_MS = 600_000;

const DESCRIPTION = `Runs a command with bash and returns its output and exit code.
- Each call starts a fresh shell in the session's working directory; cd and variables do not carry over.
- Default timeout ${DEFAULT_TIMEOUT_MS / 1000} s (timeout_ms, at most ${MAX_TIMEOUT_MS / 1000} s). On a timeout the whole process tree is killed.
- stdin is closed: interactive commands fail instead of waiting. Output over ${TOOL_OUTPUT_LIMIT.toLocaleString("en-US")} characters is cut to its head and tail; the result then gives the path of a file holding the whole, to read with read_file or grep.
- Prefer read_file, glob and grep over cat, find and grep in the shell.`;

const BashInput = v.object({
  command: v.pipe(v.string(), v.minLength(1, "give a command")),
  timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_TIMEOUT_MS))),
  description: v.optional(v.string()),
});

export interface BashToolOptions {
  cwd: string;
  defaultTimeoutMs?: number;
  /** Characters kept in memory of each stream's head (default KEPT_OUTPUT_CHARS); its tail is kept too. */
  outputLimit?: number;
}

export class BashTool implements Tool {
  readonly name = "bash";
  readonly description = DESCRIPTION;
  readonly isReadOnly = false;
  readonly inputSchema = {
    type: "object",
    properties: {
      command: { type: "string", description: "The command line, run with bash -c" },
      timeout_ms: { type: "integer", minimum: 1, maximum: MAX_TIMEOUT_MS, description: "Kill the command after this many milliseconds" },
      description: { type: "string", description: "What the command does, in a few words" },
    },
    required: ["command"],
  };

  constructor(private readonly options: BashToolOptions) {}

  /** The command first and whole: a long description must not push it out of sight. */
  async preview(input: Record<string, unknown>): Promise<ToolCallPreview> {
    const { command, ...rest } = input;
    return typeof command === "string" ? { kind: "command", command, rest } : { kind: "arguments", input };
  }

  async execute(input: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, BashInput, input);
    if (!parsed.ok) return parsed.result;
    const { command, timeout_ms: timeoutMs = this.options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS } = parsed.value;
    if (context.signal?.aborted) return errorResult("cancelled by the user before it started");

    // cat-code's own credentials are not handed to commands the model writes (as with MCP servers).
    const env = environmentWithoutOwnSecrets();
    const limit = this.options.outputLimit ?? KEPT_OUTPUT_CHARS;
    const tailLimit = Math.min(limit, TOOL_OUTPUT_LIMIT);
    const run = await runBash(command, { cwd: this.options.cwd, env, limit, tailLimit, signal: context.signal, timeoutMs });
    if (!run.ok) return errorResult(run.reason);
    return formatResult({ ...run, timeoutMs });
  }
}

function formatResult(run: {
  exitCode: number;
  stopped: "timeout" | "cancelled" | undefined;
  timeoutMs: number;
  stdout: OutputCollector;
  stderr: OutputCollector;
  drained: boolean;
}): ToolResult {
  const parts: string[] = [];
  const section = (collector: OutputCollector, label?: string) => {
    const kept = collector.kept;
    if (!kept) return;
    parts.push(`${label ? `${label}\n` : ""}${kept.replace(/\n$/, "")}`);
  };
  section(run.stdout);
  section(run.stderr, run.stdout.text ? "[stderr]" : undefined);
  if (!run.drained) parts.push("[a background process still holds the output open; later output is not shown]");
  if (run.stopped === "timeout") parts.push(`[timed out after ${run.timeoutMs} ms; the process tree was killed]`);
  else if (run.stopped === "cancelled") parts.push("[cancelled by the user; the process tree was killed]");
  else parts.push(`[exit code: ${run.exitCode}]`);
  return { content: parts.join("\n"), isError: run.stopped !== undefined || run.exitCode !== 0 };
}
