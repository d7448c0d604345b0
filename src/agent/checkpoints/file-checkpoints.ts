import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { cutText } from "../../system/cut-text.ts";

/** A file larger than this is not kept: the rewind says so instead of restoring it. */
export const MAX_CHECKPOINT_FILE_BYTES = 1024 * 1024;
/** Prompts kept; the oldest go first. */
const MAX_PROMPTS = 200;

/** A file as it was before a prompt first changed it: its bytes (base64), or null when it did not exist. */
export interface FileState {
  path: string;
  content: string | null;
  /** Too large to keep: it cannot be restored. */
  tooLarge?: boolean;
}

/** One prompt of the session and the files its tool calls changed, each as it was before. */
export interface PromptCheckpoint {
  ordinal: number;
  /** The prompt, cut: for the list /rewind shows. */
  text: string;
  /** Messages in the conversation before this prompt: where a rewind of the conversation cuts it. */
  at: number;
  files: FileState[];
}

type Line = { type: "prompt"; ordinal: number; text: string; at: number } | ({ type: "file"; ordinal: number } & FileState) | { type: "truncate"; ordinal: number };

/**
 * Checkpoints of the files the agent's file tools change, per prompt, as Claude Code keeps them for
 * its rewind: before write_file or edit_file first touches a file in a prompt, its content is kept.
 * Rewinding to before a prompt writes every file back as the earliest kept state from that prompt
 * on (a file that did not exist is removed). What bash commands change is not tracked. They are
 * saved with the session (0600, where the runtime says), so they survive --resume.
 */
export class FileCheckpoints {
  private prompts: PromptCheckpoint[] = [];
  private loadedFrom: string | undefined;

  /** `path`: where they are saved, read when first needed (the session file may come later); none: kept in memory. */
  constructor(private readonly path: () => string | undefined = () => undefined) {}

  list(): readonly PromptCheckpoint[] {
    this.load();
    return this.prompts;
  }

  beginPrompt(text: string, conversationLength: number): void {
    this.load();
    const ordinal = (this.prompts.at(-1)?.ordinal ?? 0) + 1;
    const prompt = { ordinal, text: cutText(text.replace(/\s+/g, " ").trim(), 200), at: conversationLength, files: [] };
    this.prompts.push(prompt);
    if (this.prompts.length > MAX_PROMPTS) this.prompts.shift();
    this.save({ type: "prompt", ordinal, text: prompt.text, at: prompt.at });
  }

  /** Keeps the file as it is now, unless this prompt kept it already. Outside a prompt, nothing. */
  beforeWrite(path: string): void {
    const prompt = this.prompts.at(-1);
    if (!prompt || prompt.files.some((file) => file.path === path)) return;
    const state = currentState(path);
    prompt.files.push(state);
    this.save({ type: "file", ordinal: prompt.ordinal, ...state });
  }

  /**
   * Writes the files back as they were before prompt `ordinal`; returns what was restored and what
   * could not be (too large, or the write failed, with why).
   */
  restoreFiles(ordinal: number): { restored: string[]; failed: string[] } {
    const earliest = new Map<string, FileState>();
    for (const prompt of this.list()) if (prompt.ordinal >= ordinal) for (const file of prompt.files) if (!earliest.has(file.path)) earliest.set(file.path, file);
    const restored: string[] = [];
    const failed: string[] = [];
    for (const state of earliest.values()) {
      if (state.tooLarge) {
        failed.push(`${state.path} (larger than ${MAX_CHECKPOINT_FILE_BYTES / 1024 / 1024} MB: not kept)`);
        continue;
      }
      try {
        if (state.content === null) rmSync(state.path, { force: true });
        else writeFileSync(state.path, Buffer.from(state.content, "base64"));
        restored.push(state.path);
      } catch (error) {
        failed.push(`${state.path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      }
    }
    return { restored, failed };
  }

  /** Forgets prompt `ordinal` and those after it: the session goes on from before it. */
  truncate(ordinal: number): void {
    this.prompts = this.list().filter((prompt) => prompt.ordinal < ordinal);
    this.save({ type: "truncate", ordinal });
  }

  private load(): void {
    const path = this.path();
    if (path === undefined || this.loadedFrom === path) return;
    this.loadedFrom = path;
    if (!existsSync(path)) return;
    const byOrdinal = new Map<number, PromptCheckpoint>();
    for (const text of readFileSync(path, "utf8").split("\n")) {
      let line: Line;
      try {
        line = JSON.parse(text);
      } catch {
        continue; // A line cut short by a crash: the rest still counts.
      }
      if (line.type === "prompt") byOrdinal.set(line.ordinal, { ordinal: line.ordinal, text: line.text, at: line.at, files: [] });
      else if (line.type === "file") byOrdinal.get(line.ordinal)?.files.push({ path: line.path, content: line.content, ...(line.tooLarge ? { tooLarge: true } : {}) });
      else if (line.type === "truncate") for (const ordinal of [...byOrdinal.keys()]) if (ordinal >= line.ordinal) byOrdinal.delete(ordinal);
    }
    this.prompts = [...byOrdinal.values(), ...this.prompts].slice(-MAX_PROMPTS);
  }

  private save(line: Line): void {
    const path = this.path();
    if (path === undefined) return;
    try {
      // The session's folder is made at its first line, which may come after the prompt's.
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      appendFileSync(path, `${JSON.stringify(line)}\n`, { mode: 0o600 });
      chmodSync(path, 0o600);
    } catch {
      // Unsaved checkpoints still work for this run; the session file says why the folder fails.
    }
  }
}

function currentState(path: string): FileState {
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return { path, content: null };
    if (stat.size > MAX_CHECKPOINT_FILE_BYTES) return { path, content: null, tooLarge: true };
    return { path, content: readFileSync(path).toString("base64") };
  } catch {
    return { path, content: null };
  }
}
