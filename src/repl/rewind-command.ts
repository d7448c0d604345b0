import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { PromptCheckpoint } from "../agent/checkpoints/file-checkpoints.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { AgentRuntime } from "./agent-runtime.ts";

export interface RewindIo {
  print(text: string): void;
  /** One answer at the terminal; null when input ended or it was cancelled. */
  ask(question: string): Promise<string | null>;
}

/**
 * `/rewind`: the session's prompts, newest last, each with the files its tool calls changed; the
 * one chosen is undone with all after it: the conversation goes back to before it, the files
 * write_file and edit_file changed are written back, or both. What bash commands changed is not
 * tracked (the list says so). A conversation compacted since that prompt can only have its files
 * rewound.
 */
export async function rewindCommand(runtime: AgentRuntime, io: RewindIo): Promise<void> {
  const prompts = runtime.checkpoints.list();
  if (prompts.length === 0) {
    io.print("Nothing to rewind: no prompt was sent in this session yet.");
    return;
  }
  io.print("Prompts of this session (changes made by bash commands are not tracked):");
  for (const prompt of prompts) io.print(`  ${prompt.ordinal}  ${sanitizeForTerminal(prompt.text)}${filesNote(prompt)}`);
  const first = prompts[0]?.ordinal ?? 1;
  const last = prompts.at(-1)?.ordinal ?? 1;
  const chosen = (await io.ask(`Rewind to before which prompt? [${first}-${last}, Enter: none] `))?.trim() ?? "";
  const prompt = prompts.find((candidate) => String(candidate.ordinal) === chosen);
  if (!prompt) {
    io.print(chosen === "" ? "Nothing rewound." : `No prompt ${sanitizeForTerminal(chosen)} in the list; nothing rewound.`);
    return;
  }
  const agent = runtime.agentOrMissingKey();
  const messages = "missing" in agent ? [] : agent.conversation.snapshot();
  const conversationOk = !("missing" in agent) && startsPrompt(messages, prompt.at);
  const choices = conversationOk ? "[c]onversation, [f]iles or [b]oth" : "[f]iles (the conversation was compacted or cleared since)";
  const what = (await io.ask(`Restore ${choices}? `))?.trim().toLowerCase() ?? "";
  const conversation = conversationOk && (what === "c" || what === "b");
  const files = what === "f" || what === "b";
  if (!conversation && !files) {
    io.print("Nothing rewound.");
    return;
  }
  if (files) {
    const { restored, failed } = runtime.checkpoints.restoreFiles(prompt.ordinal);
    io.print(`Restored ${restored.length} file(s)${restored.length ? `: ${restored.map((path) => sanitizeForTerminal(path)).join(", ")}` : ""}`);
    for (const line of failed) io.print(`  not restored: ${sanitizeForTerminal(line)}`);
  }
  if (conversation && !("missing" in agent)) {
    agent.conversation.replace(messages.slice(0, prompt.at));
    runtime.todos.restore(agent.conversation.snapshot());
    runtime.checkpoints.truncate(prompt.ordinal);
    io.print(`The conversation is back to before prompt ${prompt.ordinal} (${prompt.at} message(s)).`);
  }
}

function filesNote(prompt: PromptCheckpoint): string {
  const count = prompt.files.length;
  return count === 0 ? "" : `  (${count} file${count === 1 ? "" : "s"} changed)`;
}

/** Whether the conversation still has this prompt where it began: a user turn that is not tool results. */
function startsPrompt(messages: readonly MessageParam[], at: number): boolean {
  const message = messages[at];
  if (!message || message.role !== "user") return false;
  return typeof message.content === "string" || message.content.some((block) => block.type !== "tool_result");
}
