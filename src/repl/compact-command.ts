import { AgentError } from "../agent/agent-error.ts";
import type { CompactionNotice } from "../agent/agent-observer.ts";
import type { AgentRuntime } from "./agent-runtime.ts";

export interface CompactContext {
  runtime: AgentRuntime;
  print(text: string): void;
  /** Runs the summary request so that Ctrl-C or Esc cancels it. */
  cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/**
 * `/compact [instructions]`: the conversation is replaced by a summary the model writes (the
 * instructions say what to keep). If it fails or is cancelled, the conversation stays as it was.
 */
export async function runCompact(instructions: string, context: CompactContext): Promise<void> {
  const agent = context.runtime.agentOrMissingKey();
  if ("missing" in agent) {
    context.print(`error: ${agent.missing}`);
    return;
  }
  if (agent.conversation.length === 0) {
    context.print("Nothing to compact: the conversation is empty.");
    return;
  }
  let cancelled = false;
  try {
    const notice = await context.cancellable(async (signal) => {
      const result = await agent.compact({ instructions, signal });
      cancelled = signal.aborted;
      return result;
    });
    context.print(notice ? compactionLine(notice) : cancelled ? "Compaction cancelled: the conversation was kept as it was." : "Nothing to compact.");
  } catch (error) {
    if (!(error instanceof AgentError)) throw error;
    context.print(`error: ${error.message} (compaction failed: the conversation was kept as it was)`);
  }
}

/** One line for a compaction, whoever started it. */
export function compactionLine(notice: CompactionNotice): string {
  const why = notice.reason === "manual" ? "" : notice.reason === "auto" ? " (it was nearing the context window)" : " (the prompt was too long for the model)";
  return `Compacted the conversation into a summary${why}: ${notice.before} messages → ${notice.after}.`;
}
