import { DEFAULT_IMAGE_LIMITS, ImageBudget, type ImageLimits } from "../../agent/image-budget.ts";
import type { PromptBlock } from "../../agent/prompt-blocks.ts";
import { limitOutput, TOOL_OUTPUT_LIMIT } from "../../agent/tools/output-limit.ts";
import { cutText } from "../../system/cut-text.ts";
import { base64Bytes, formatBytes } from "../../system/format-bytes.ts";
import type { ResourceContents } from "../protocol.ts";

/** What one read resource may put before the model: its text as much as one tool result, its images as many. */
export interface ResourceLimits {
  /** Characters of text over all the parts together; each part is cut with a note, past it parts are left out. */
  textChars: number;
  images: ImageLimits;
}

export const DEFAULT_RESOURCE_LIMITS: ResourceLimits = { textChars: TOOL_OUTPUT_LIMIT, images: DEFAULT_IMAGE_LIMITS };

/** A URI is the server's: long ones are cut where they name a part, since the name is only a label. */
const MAX_URI_CHARS = 500;

/** Parts of one read shown at most; a server that answers with more is summarized, not listed. */
const MAX_PARTS = 1000;

/** Binary parts of these types are text in disguise (server-everything serves text/plain blobs). */
const TEXTUAL_TYPE = /^text\/|[/+](json|xml|yaml|javascript|csv|markdown)(;|$)/i;

/**
 * A read resource's contents as blocks for the model, each part introduced by a line naming the
 * server and URI: text as text (cut like a tool's output, with its note), images as image blocks
 * (the API's limits, see ImageBudget), textual blobs decoded, other binaries described in one line
 * (`[binary resource fs:file:///a.pdf, application/pdf, 1.2 MB: not shown]`). Shared by the
 * read_mcp_resource tool and the REPL's `@server:uri` mentions.
 */
export function resourceBlocks(server: string, contents: ResourceContents[], limits: ResourceLimits = DEFAULT_RESOURCE_LIMITS): PromptBlock[] {
  const images = new ImageBudget(limits.images);
  const blocks: PromptBlock[] = [];
  let textLeft = limits.textChars;
  for (const [index, part] of contents.entries()) {
    const name = `${server}:${cutText(part.uri, MAX_URI_CHARS)}`;
    const type = part.mimeType ? `, ${cutText(part.mimeType, 100)}` : "";
    const text = part.text ?? (part.blob !== undefined && TEXTUAL_TYPE.test(part.mimeType ?? "") ? decodeUtf8(part.blob) : undefined);
    if (index >= MAX_PARTS || (text !== undefined && textLeft <= 0)) {
      const rest = contents.length - index;
      blocks.push({ type: "text", text: `[${rest} more part(s) of ${name} not shown: the output limit was reached]` });
      break;
    }
    if (text !== undefined) {
      const shown = limitOutput(text, textLeft);
      textLeft -= Math.min(text.length, textLeft);
      blocks.push({ type: "text", text: `[resource ${name}${type}]\n${shown}` });
    } else if (part.blob !== undefined && /^image\//i.test(part.mimeType ?? "")) {
      const verdict = images.take(part.blob, part.mimeType, name);
      blocks.push({ type: "text", text: verdict.line });
      if (verdict.image) blocks.push(verdict.image);
    } else if (part.blob !== undefined) {
      blocks.push({ type: "text", text: `[binary resource ${name}${type || ", unknown type"}, ${formatBytes(base64Bytes(part.blob))}: not shown]` });
    } else {
      blocks.push({ type: "text", text: `[resource ${name}${type}: empty]` });
    }
  }
  return blocks;
}

/** The size of a resource's contents as a person reads it (`1.2 KB`): text in UTF-8 bytes, blobs decoded. */
export function contentsSize(contents: ResourceContents[]): string {
  const bytes = contents.reduce((sum, part) => sum + (part.text !== undefined ? Buffer.byteLength(part.text) : base64Bytes(part.blob ?? "")), 0);
  return formatBytes(bytes);
}

/** A blob as UTF-8 text, or undefined when it is not valid UTF-8 (then it is a binary after all). */
function decodeUtf8(blob: string): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(blob, "base64"));
  } catch {
    return undefined;
  }
}
