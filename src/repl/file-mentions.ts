import { constants } from "node:fs";
import { open, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import { ImageBudget } from "../agent/image-budget.ts";
import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { formatBytes } from "../system/format-bytes.ts";
import { imageAttachment, pastedPaths, type ImageAttachment } from "./image-attachment.ts";

/** One file's share of a prompt: about 25,000 tokens, as a tool result may take. */
export const MAX_FILE_BYTES = 100 * 1024;
/** All the files of one prompt together. */
export const MAX_TOTAL_BYTES = 400 * 1024;
/** More `@` files than this in one prompt is a slip, not a request. */
export const MAX_FILES = 20;
/** A NUL byte in the first bytes of a file makes it binary, as git and grep decide. */
const SNIFF_BYTES = 8000;

/** `@word` at the start of a word (`me@example.com` is none). */
const MENTION = /(?<=^|\s)@(\S+)/g;

export interface FileMentions {
  /** One text block per attached file, to follow the prompt. */
  blocks: PromptBlock[];
  /** `attached src/a.ts (1.2 KB)`, `not attached: logo.png is a binary file`: one per file, not sanitized. */
  notes: string[];
}

/**
 * The files a prompt names with `@path` (relative to `cwd`, or absolute), read and attached after
 * the prompt as Claude Code does. An `@name:…` word whose name is an MCP server is a resource
 * mention (resource-mentions.ts), not a path; a word that names no file is plain text. Each file is
 * cut at MAX_FILE_BYTES with a note the model sees; a binary file, a folder or a device is refused.
 * An image (by its bytes: PNG, JPEG, GIF, WebP) is attached as an image, and so is one whose
 * absolute path was pasted without `@` (a file dragged onto the terminal).
 */
export async function attachFiles(text: string, options: { cwd: string; servers: readonly string[] }): Promise<FileMentions> {
  const found: FileMentions = { blocks: [], notes: [] };
  const seen = new Set<string>();
  let total = 0;
  const images = new ImageBudget();
  const addImage = (image: ImageAttachment) => {
    if ("refused" in image) return found.notes.push(`not attached: ${image.refused}`);
    found.blocks.push(...image.blocks);
    found.notes.push(image.note);
  };
  for (const [, word = ""] of text.matchAll(MENTION)) {
    const server = /^([A-Za-z0-9_-]+):/.exec(word)?.[1];
    if (server !== undefined && options.servers.includes(server)) continue;
    const path = await existingPath(word, options.cwd);
    if (path === undefined || seen.has(path)) continue;
    seen.add(path);
    const shown = isAbsolute(word) ? path : relative(options.cwd, path) || ".";
    if (seen.size > MAX_FILES) {
      found.notes.push(`not attached: ${shown} (a prompt attaches at most ${MAX_FILES} files)`);
      continue;
    }
    const image = await imageFile(path, shown, images);
    if (image) {
      addImage(image);
      continue;
    }
    const read = await readForPrompt(path, shown, Math.min(MAX_FILE_BYTES, MAX_TOTAL_BYTES - total));
    if ("refused" in read) {
      found.notes.push(`not attached: ${read.refused}`);
      continue;
    }
    total += read.bytes;
    const cutNote = read.cut ? `\n[cut: the file has ${formatBytes(read.size)}; only the first ${formatBytes(read.bytes)} are attached]` : "";
    found.blocks.push({ type: "text", text: `The user attached the file ${shown} with @:\n<file path="${shown}">\n${read.text}${cutNote}\n</file>` });
    found.notes.push(`attached ${shown} (${read.cut ? `the first ${formatBytes(read.bytes)} of ${formatBytes(read.size)}` : formatBytes(read.size)})`);
  }
  for (const path of pastedPaths(text)) {
    if (seen.has(path) || seen.size >= MAX_FILES) continue;
    const image = await imageFile(path, path, images);
    if (!image) continue;
    seen.add(path);
    addImage(image);
  }
  return found;
}

/** The image a regular file holds, if it is one; undefined for anything else (or what cannot be read). */
async function imageFile(path: string, shown: string, budget: ImageBudget): Promise<ImageAttachment | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? await imageAttachment(path, shown, info.size, budget) : undefined;
  } catch {
    return undefined;
  }
}

/** The path a mention names, if it exists: as typed, or without the sentence's `,.;:)!?` after it. */
async function existingPath(word: string, cwd: string): Promise<string | undefined> {
  for (const candidate of new Set([word, word.replace(/[,.;:)!?'"]+$/, "")])) {
    if (!candidate) continue;
    const path = resolve(cwd, candidate);
    if (await stat(path).then(() => true, () => false)) return path;
  }
  return undefined;
}

type PromptFile = { text: string; bytes: number; size: number; cut: boolean } | { refused: string };

async function readForPrompt(path: string, shown: string, room: number): Promise<PromptFile> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return { refused: `${shown} is a folder (name the files in it)` };
    // A FIFO or a device would block or never end: only regular files are read.
    if (!info.isFile()) return { refused: `${shown} is not a regular file` };
    if (room <= 0) return { refused: `${shown} (the files of one prompt may hold ${formatBytes(MAX_TOTAL_BYTES)} in all)` };
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const bytes = new Uint8Array(Math.min(info.size, room));
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
      const head = bytes.subarray(0, bytesRead);
      if (head.subarray(0, SNIFF_BYTES).includes(0)) return { refused: `${shown} is a binary file` };
      // `stream: true` leaves a character cut in half at the end out instead of failing on it.
      const text = new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: bytesRead < info.size });
      return { text, bytes: bytesRead, size: info.size, cut: bytesRead < info.size };
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof TypeError) return { refused: `${shown} is not UTF-8 text` };
    return { refused: `${shown}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}
