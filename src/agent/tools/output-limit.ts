import { closeSync, mkdirSync, openSync, readdirSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { formatBytes } from "../../system/format-bytes.ts";
import type { ToolResult } from "../tool.ts";

/** What one token is taken to be in characters, for limits given in tokens (as Claude Code's are). */
export const CHARS_PER_TOKEN = 4;
/** What one tool result may put before the model, in tokens: Claude Code's MCP default. */
export const DEFAULT_OUTPUT_TOKENS = 25_000;
/** About 25,000 tokens: what one tool result, built-in or MCP, may put before the model. */
export const TOOL_OUTPUT_LIMIT = DEFAULT_OUTPUT_TOKENS * CHARS_PER_TOKEN;
/**
 * Disk a session may fill with saved outputs. Past it an output is still cut, but not saved, and
 * the model is told so: a runaway loop of huge outputs cannot fill the disk.
 */
export const MAX_SAVED_OUTPUT_BYTES = 256 * 2 ** 20;

/** Cuts text meant for the model, saying what was cut so the model does not take it for the whole. */
export function limitOutput(text: string, limit = TOOL_OUTPUT_LIMIT): string {
  if (text.length <= limit) return text;
  const cut = text.length - limit;
  return `${text.slice(0, limit)}\n\n[output cut: ${cut.toLocaleString("en-US")} of ${text.length.toLocaleString("en-US")} characters not shown]`;
}

/** An output that went over its limit: how big it was, and where the whole of it is (or why it is nowhere). */
export interface OutputCut {
  chars: number;
  /** Its size in UTF-8, as the file holds it. */
  bytes: number;
  lines: number;
  /** The file holding the whole output; absent when it was not saved. */
  path?: string;
  /** Why it was not saved (no session folder, the session's disk bound, a write error). */
  notSaved?: string;
}

export interface OutputLimitOptions {
  /** Characters of one tool's result the model gets (the rest is cut from the middle). */
  maxChars: (toolName: string) => number;
  /**
   * The folder whole outputs are saved in (the session's), asked at each cut, so a new session
   * file gets its own; undefined: outputs are cut without being saved.
   */
  folder: () => string | undefined;
  /** Disk the saved outputs of one folder may take (default MAX_SAVED_OUTPUT_BYTES). */
  maxFolderBytes?: number;
}

/**
 * The one limit every tool result passes before the model sees it, built-in or MCP. Past it the
 * model gets the head and the tail (errors are usually at the end) and a line in the middle with
 * the size of the whole and the path of the file it was saved to, so it can read on with
 * read_file or grep. Files are 0600 in a 0700 folder: an output may hold anything a command printed.
 */
export class OutputLimit {
  /** Bytes saved so far per folder (a resumed session's earlier files counted once, at first use). */
  private readonly used = new Map<string, number>();

  constructor(private readonly options: OutputLimitOptions) {}

  /** The result as the model gets it; `cut` says what was cut when it was. Images pass as they are. */
  apply(callId: string, toolName: string, result: ToolResult): { result: ToolResult; cut?: OutputCut } {
    const max = this.options.maxChars(toolName);
    const text = result.content;
    if (text.length <= max) return { result };
    const cut: OutputCut = { chars: text.length, bytes: Buffer.byteLength(text), lines: countLines(text), ...this.save(callId, text) };
    return { result: { ...result, content: headAndTail(text, max, cutNote(cut)) }, cut };
  }

  private save(callId: string, text: string): { path: string } | { notSaved: string } {
    const folder = this.options.folder();
    if (folder === undefined) return { notSaved: "this session is not saved, so neither is the output" };
    const bytes = Buffer.byteLength(text);
    const bound = this.options.maxFolderBytes ?? MAX_SAVED_OUTPUT_BYTES;
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const used = this.used.get(folder) ?? folderBytes(folder);
      if (used + bytes > bound) return { notSaved: `this session's saved outputs reached their ${formatBytes(bound)} bound` };
      const path = join(folder, `${callId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100) || "output"}.txt`);
      // "wx": never over another file (a symlink planted there included).
      const fd = openSync(path, "wx", 0o600);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      this.used.set(folder, used + bytes);
      return { path };
    } catch (error) {
      return { notSaved: `saving it failed: ${(error as Error).message}` };
    }
  }
}

/**
 * `text` cut to about `max` characters: its head and its tail, at line ends when one is near, with
 * `note` between them. The tail gets the larger share: a failing build's error is at its end.
 */
export function headAndTail(text: string, max: number, note: string): string {
  // Two line breaks go around the note.
  const room = Math.max(max - note.length - 2, 0);
  const headChars = Math.floor(room * 0.4);
  const tailChars = room - headChars;
  let head = text.slice(0, headChars);
  let tail = text.slice(text.length - tailChars);
  const headBreak = head.lastIndexOf("\n");
  if (headBreak >= headChars * 0.8) head = head.slice(0, headBreak + 1);
  const tailBreak = tail.indexOf("\n");
  if (tailBreak >= 0 && tailBreak <= tailChars * 0.2) tail = tail.slice(tailBreak + 1);
  // Never half an emoji: a lone surrogate is not text the API takes.
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  if (/^[\udc00-\udfff]/.test(tail)) tail = tail.slice(1);
  return `${head.replace(/\n?$/, "\n")}${note}\n${tail}`;
}

/** The line the model reads where the middle was cut. */
function cutNote(cut: OutputCut): string {
  const size = `${cut.chars.toLocaleString("en-US")} characters, ${cut.lines.toLocaleString("en-US")} lines`;
  return cut.path
    ? `[… output cut: only its head and tail are shown. The whole output (${size}) is saved in ${cut.path}; read it with read_file (offset, limit) or search it with grep …]`
    : `[… output cut: only its head and tail are shown (the whole was ${size}); it was not saved: ${cut.notSaved} …]`;
}

/** The one line the user sees when an output was cut. */
export function describeCut(toolName: string, cut: OutputCut): string {
  const size = `${formatBytes(cut.bytes)}, ${cut.lines.toLocaleString("en-US")} lines`;
  return cut.path ? `⚠ ${toolName}: output too large (${size}); the model got its head and tail, the whole is in ${cut.path}` : `⚠ ${toolName}: output too large (${size}); the model got its head and tail (not saved: ${cut.notSaved})`;
}

function countLines(text: string): number {
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < text.length - 1; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}

function folderBytes(folder: string): number {
  let total = 0;
  for (const name of readdirSync(folder)) {
    try {
      total += statSync(join(folder, name)).size;
    } catch {
      // A file that went away takes no room.
    }
  }
  return total;
}

