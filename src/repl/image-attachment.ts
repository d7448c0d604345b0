import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { DEFAULT_IMAGE_LIMITS, type ImageBudget } from "../agent/image-budget.ts";
import { readImageHeader } from "../agent/image-header.ts";
import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { formatBytes } from "../system/format-bytes.ts";

/** Enough of a file to know whether it is an image, and (mostly) its size in pixels. */
const SNIFF_BYTES = 64 * 1024;
/** The largest image file read: what the API takes as base64 (5 MB), decoded. */
const MAX_IMAGE_BYTES = (DEFAULT_IMAGE_LIMITS.maxBase64Chars * 3) / 4;

/** What an image file attaches: a line naming it and the image, or why it was not attached. */
export type ImageAttachment = { blocks: PromptBlock[]; note: string } | { refused: string };

/**
 * The image a prompt names (`@shot.png`, or a pasted path), if the file's bytes are a PNG, JPEG,
 * GIF or WebP image, whatever its name says: the image block and a line that names it, or why it
 * is refused (over the API's size, sides or count, through `budget`). Undefined when the file is
 * not an image (it is then read as text, or refused as binary).
 */
export async function imageAttachment(path: string, shown: string, size: number, budget: ImageBudget): Promise<ImageAttachment | undefined> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const head = new Uint8Array(Math.min(size, SNIFF_BYTES));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const header = readImageHeader(head.subarray(0, bytesRead));
    if (!header) return undefined;
    if (size > MAX_IMAGE_BYTES) return { refused: `${shown} is a ${formatBytes(size)} image; the model takes images of at most ${formatBytes(MAX_IMAGE_BYTES)}` };
    const bytes = new Uint8Array(size);
    const { bytesRead: whole } = await handle.read(bytes, 0, size, 0);
    const verdict = budget.take(Buffer.from(bytes.buffer, 0, whole).toString("base64"), header.mediaType, shown);
    if (!verdict.image) return { refused: verdict.line.slice(1, -1) };
    return {
      blocks: [{ type: "text", text: `The user attached the image ${shown}: ${verdict.line}` }, verdict.image],
      note: `attached ${shown} (${verdict.line.slice(1, -1).replace(` ${shown}`, "")}, ${formatBytes(whole)})`,
    };
  } finally {
    await handle.close();
  }
}

/**
 * Absolute paths in a prompt that are not `@` mentions, as a terminal pastes a file dragged onto it:
 * `/a/b.png`, `'/a/my shot.png'`, `"/a/my shot.png"` or `/a/my\ shot.png`. Only those that are images
 * are attached (see attachFiles): a path in a sentence stays text.
 */
export function pastedPaths(text: string): string[] {
  const paths: string[] = [];
  for (const match of text.matchAll(/(?<=^|\s)(?:'(\/[^']+)'|"(\/[^"]+)"|(\/(?:\\ |\S)+))/g)) {
    const path = match[1] ?? match[2] ?? (match[3] as string).replace(/\\ /g, " ");
    paths.push(path);
  }
  return paths;
}
