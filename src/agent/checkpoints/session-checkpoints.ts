import { lstat, open, realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { constants } from "node:fs";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { formatBytes } from "../../system/format-bytes.ts";
import { sha256Hex } from "../../system/light-crypto.ts";
import type { FileChangeJournal } from "../tools/file-change-journal.ts";
import type { CheckpointLine, PromptPosition } from "./checkpoint-line.ts";
import { CheckpointStore } from "./checkpoint-store.ts";
import { conversationBefore, promptPosition } from "./conversation-cut.ts";
import { restoreFile, type RestoreTarget } from "./file-restore.ts";

/** What one session keeps of files as they were, at most: past it, a prompt's checkpoint is incomplete. */
export const CHECKPOINT_BYTES = 100 * 1024 * 1024;
/** How much of a prompt the list keeps (the conversation has the whole). */
const PROMPT_TEXT_CHARS = 4000;

/** One prompt of the session, as /rewind lists it. */
export interface PromptCheckpoint {
  id: number;
  time: Date;
  /** The prompt as typed, cut to 4,000 characters (the caller sanitizes it for a terminal). */
  text: string;
  /** The text was longer than that. */
  cut: boolean;
  at: PromptPosition;
  /** The files its tools changed (and the checkpoint kept), real paths. */
  files: string[];
  /** The files it changed that the checkpoint could not keep, and why: a rewind leaves them as they are. */
  incomplete: Array<{ path: string; reason: string }>;
}

/** What a rewind of the files did, file by file (real paths). */
export interface FilesRewind {
  restored: string[];
  removed: string[];
  /** Changed since cat-code last wrote them (an editor, a bash command): restored all the same. */
  changedOutside: string[];
  skipped: Array<{ path: string; reason: string }>;
  /** Changed by the prompts undone, but not kept (see `incomplete`): left as they are. */
  notKept: Array<{ path: string; reason: string }>;
}

export interface SessionCheckpointsOptions {
  /** The session's own folder (sessionFilesFolder); undefined while the session is not saved: nothing is kept. */
  sessionFolder: () => string | undefined;
  maxBytes?: number;
  now?: () => Date;
}

/**
 * Checkpoints per prompt: before write_file or edit_file first changes a file in a prompt, its
 * content (or that it did not exist) is kept with the session; /rewind puts files back as they were
 * before a chosen prompt, and cuts the conversation there. Kept on disk with the session, so a
 * resumed session can still rewind. Changes made by bash commands are not seen.
 */
export class SessionCheckpoints implements FileChangeJournal {
  private store: CheckpointStore | undefined;
  private lines: CheckpointLine[] = [];
  /**
   * Prompt lines not yet on disk: they wait until the session has something to keep (a file change,
   * a rewind), so a session whose tools change no file leaves no checkpoint folder behind.
   */
  private held: CheckpointLine[] = [];
  private usedBytes = 0;
  /** The prompt changes are counted to: the last begun in this process (none after a resume until one is sent). */
  private current: number | undefined;
  private readonly maxBytes: number;
  private readonly now: () => Date;

  constructor(private readonly options: SessionCheckpointsOptions) {
    this.maxBytes = options.maxBytes ?? CHECKPOINT_BYTES;
    this.now = options.now ?? (() => new Date());
  }

  /** A prompt is about to be sent with the conversation as it is now: what follows is its checkpoint. */
  beginPrompt(text: string, conversation: readonly MessageParam[]): void {
    const store = this.opened();
    if (!store) return;
    const id = this.lines.reduce((max, line) => (line.type === "prompt" ? Math.max(max, line.id) : max), 0) + 1;
    this.current = id;
    this.write(store, { type: "prompt", id, time: this.now().toISOString(), text: text.slice(0, PROMPT_TEXT_CHARS), at: promptPosition(conversation) });
  }

  /**
   * The prompt begun last never ran (a hook blocked it, it was given up before it was sent, or its
   * request failed and it was taken out of the conversation): it leaves the list, unless its tools
   * changed a file before that (then its checkpoint is what puts the file back).
   */
  abandonPrompt(): void {
    const store = this.opened();
    const id = this.current;
    if (!store || id === undefined) return;
    if (this.lines.some((line) => (line.type === "before" || line.type === "incomplete") && line.prompt === id)) return;
    this.current = undefined;
    const isIt = (line: CheckpointLine) => line.type === "prompt" && line.id === id;
    if (this.held.some(isIt)) {
      // Not on disk yet: it goes as if it had never begun.
      this.held = this.held.filter((line) => !isIt(line));
      this.lines = this.lines.filter((line) => !isIt(line));
      return;
    }
    // In the journal already: a rewind to it takes it (the last prompt) out, now and when read back.
    this.write(store, { type: "rewound", prompt: id });
  }

  async beforeChange(file: string): Promise<void> {
    const store = this.opened();
    const prompt = this.current;
    if (!store || prompt === undefined) return;
    const path = await realPathOf(file);
    if (this.lines.some((line) => (line.type === "before" || line.type === "incomplete") && line.prompt === prompt && line.path === path)) return;
    const incomplete = (reason: string) => this.write(store, { type: "incomplete", prompt, path, reason });
    try {
      const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      });
      if (!info) return this.write(store, { type: "before", prompt, path, blob: null });
      if (!info.isFile()) return incomplete("not a regular file");
      const over = `over the ${formatBytes(this.maxBytes)} of checkpoints a session keeps`;
      if (this.usedBytes + info.size > this.maxBytes) return incomplete(over);
      const bytes = await readNoFollow(path);
      const blob = sha256Hex(bytes);
      if (!store.hasBlob(blob)) {
        if (this.usedBytes + bytes.length > this.maxBytes) return incomplete(over);
        store.putBlob(bytes);
        this.usedBytes += bytes.length;
      }
      this.write(store, { type: "before", prompt, path, blob, mode: info.mode & 0o7777 });
    } catch (error) {
      try {
        incomplete(`could not be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      } catch {
        // A journal that cannot be written: the change goes ahead unkept, as an unsaved session's would.
      }
    }
  }

  async changed(file: string, content: string | Uint8Array): Promise<void> {
    const store = this.opened();
    if (!store || this.current === undefined) return;
    try {
      this.write(store, { type: "wrote", path: await realPathOf(file), sha: sha256Hex(content) });
    } catch {
      // Without it, a later rewind only cannot tell that the file was changed outside cat-code.
    }
  }

  /** The session's prompts that a rewind can go back to, newest first. */
  prompts(): PromptCheckpoint[] {
    this.opened();
    const prompts = new Map<number, PromptCheckpoint>();
    for (const line of this.lines) {
      if (line.type === "prompt") prompts.set(line.id, { id: line.id, time: new Date(line.time), text: line.text, cut: line.text.length >= PROMPT_TEXT_CHARS, at: line.at, files: [], incomplete: [] });
      else if (line.type === "before") prompts.get(line.prompt)?.files.push(line.path);
      else if (line.type === "incomplete") prompts.get(line.prompt)?.incomplete.push({ path: line.path, reason: line.reason });
      else if (line.type === "rewound") for (const id of prompts.keys()) if (id >= line.prompt) prompts.delete(id);
    }
    return [...prompts.values()].reverse();
  }

  /** The conversation as it was before `prompt`, or undefined when it has changed too much since (compaction, /clear). */
  conversationBefore(prompt: PromptCheckpoint, messages: readonly MessageParam[]): MessageParam[] | undefined {
    return conversationBefore(messages, prompt.at);
  }

  /** The conversation was cut before `prompt`: it and the later prompts leave the list. */
  conversationRewound(prompt: PromptCheckpoint): void {
    const store = this.opened();
    if (store) this.write(store, { type: "rewound", prompt: prompt.id });
    this.current = undefined;
  }

  /** Puts every file the prompts from `prompt` on changed back as it was before it began. */
  async rewindFiles(prompt: PromptCheckpoint): Promise<FilesRewind> {
    const report: FilesRewind = { restored: [], removed: [], changedOutside: [], skipped: [], notKept: [] };
    const store = this.opened();
    if (!store) return report;
    // The first record of a path from that prompt on is its state when the prompt began.
    const first = new Map<string, CheckpointLine & { type: "before" | "incomplete" }>();
    const lastWrote = new Map<string, string | null>();
    for (const line of this.lines) {
      if ((line.type === "before" || line.type === "incomplete") && line.prompt >= prompt.id && !first.has(line.path)) first.set(line.path, line);
      if (line.type === "wrote") lastWrote.set(line.path, line.sha);
    }
    for (const [path, line] of first) {
      if (line.type === "incomplete") {
        report.notKept.push({ path, reason: line.reason });
        continue;
      }
      let target: RestoreTarget = null;
      if (line.blob !== null) {
        const bytes = store.readBlob(line.blob);
        if (!bytes) {
          report.skipped.push({ path, reason: "its checkpoint is missing or damaged" });
          continue;
        }
        target = { bytes, mode: line.mode };
      }
      const done = await restoreFile(path, target);
      if (done.outcome === "skipped") {
        report.skipped.push({ path, reason: done.reason });
        continue;
      }
      if (lastWrote.has(path) && lastWrote.get(path) !== done.previous) report.changedOutside.push(path);
      if (done.outcome === "restored") report.restored.push(path);
      if (done.outcome === "removed") report.removed.push(path);
      this.write(store, { type: "wrote", path, sha: target === null ? null : sha256Hex(target.bytes) });
    }
    return report;
  }

  /** The store of the session's folder now: read again when the session changed (a resume, a new session). */
  private opened(): CheckpointStore | undefined {
    const folder = this.options.sessionFolder();
    if (folder === undefined) return undefined;
    if (this.store?.sessionFolder !== folder) {
      this.store = new CheckpointStore(folder);
      this.lines = this.store.read();
      this.usedBytes = this.store.blobBytes();
      this.current = undefined;
      this.held = [];
    }
    return this.store;
  }

  private write(store: CheckpointStore, line: CheckpointLine): void {
    if (line.type === "prompt" && !store.hasJournal()) {
      this.held.push(line);
    } else {
      for (const waiting of this.held.splice(0)) store.append(waiting);
      store.append(line);
    }
    this.lines.push(line);
  }
}

/** The file's path with every link resolved, for one that may not exist yet: its nearest existing folder's. */
async function realPathOf(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    try {
      return join(await realpath(dirname(file)), basename(file));
    } catch {
      return file;
    }
  }
}

/** The bytes of a regular file, without following a link put there since it was looked at. */
async function readNoFollow(path: string): Promise<Uint8Array> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
