import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ProjectMemory } from "../agent/project-memory.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { memoryText } from "./memory-command.ts";

/** What /memory needs of the REPL; `edit` only at a terminal, where an editor can have it. */
export interface MemoryIo {
  memory: ProjectMemory;
  /** cat-code's home: its AGENTS.md is the user's memory. */
  home: string;
  cwd: string;
  print(text: string): void;
  ask?: (question: string, signal: AbortSignal) => Promise<string | null>;
  cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Opens a file in $VISUAL/$EDITOR with the terminal handed over (external-editor.ts). */
  edit?: (path: string) => Promise<{ code: number } | { error: string }>;
  /** Reads the memory files again, so the next request has what was written. */
  reload(): void;
}

/**
 * `/memory`: the memory files as before; at a terminal, then a choice of one to open in the
 * user's editor: a loaded file, or the project's or the user's AGENTS.md to start. After the
 * editor exits, the memory is read again for the next request.
 */
export async function memoryCommand(io: MemoryIo): Promise<void> {
  io.print(memoryText(io.memory));
  if (!io.edit || !io.ask) return;
  const choices = editableFiles(io);
  io.print(["Open in your editor ($VISUAL or $EDITOR):", ...choices.map((choice, index) => `  ${index + 1}  ${sanitizeForTerminal(choice.path)}${choice.exists ? "" : " (new)"}`)].join("\n"));
  const ask = io.ask;
  const answer = await io.cancellable((signal) => ask(`Edit which? [1-${choices.length}, Enter: none] `, signal));
  const chosen = answer?.trim() ? choices[Number(answer.trim()) - 1] : undefined;
  if (!chosen) {
    if (answer?.trim()) io.print(`No file ${sanitizeForTerminal(answer.trim())}: /memory again to choose one of 1 to ${choices.length}.`);
    return;
  }
  try {
    mkdirSync(dirname(chosen.path), { recursive: true });
  } catch {
    // The editor says what is wrong with the folder better than a guess here would.
  }
  const result = await io.edit(chosen.path);
  if ("error" in result) return io.print(`error: ${result.error}`);
  io.reload();
  io.print(`⎿ ${sanitizeForTerminal(chosen.path)}: the editor exited${result.code ? ` with code ${result.code}` : ""}; the memory is read again from the next request.`);
}

/** The loaded memory files, then the project's and the user's AGENTS.md when they are not among them. */
function editableFiles(io: MemoryIo): Array<{ path: string; exists: boolean }> {
  const loaded = io.memory.files.map((file) => ({ path: file.path, exists: true }));
  const starts = [join(io.memory.gitRoot ?? io.cwd, "AGENTS.md"), join(io.home, "AGENTS.md")];
  return [...loaded, ...starts.filter((path) => !loaded.some((file) => file.path === path)).map((path) => ({ path, exists: existsSync(path) }))];
}
