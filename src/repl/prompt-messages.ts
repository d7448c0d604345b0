import { IMAGE_MEDIA_TYPES, type ImageMediaType, type PromptBlock } from "../agent/prompt-blocks.ts";
import { limitOutput } from "../agent/tools/output-limit.ts";
import type { ContentBlock, GetPromptResult } from "../mcp/protocol.ts";

/** What the Messages API takes per image (base64 characters), and per turn. */
const MAX_IMAGE_BASE64_CHARS = 5 * 1024 * 1024;
const MAX_IMAGES = 20;

/**
 * A prompt's messages as the user's turn. Text goes as text (each part capped as a tool's output
 * is), images the API takes as images, an embedded resource's text as text after a line naming it;
 * anything else is described in one line. A turn is the user's, so an assistant-role message cannot
 * be the model's own words: it is quoted, introduced as the prompt's example of an answer, so the
 * model reads it as context the prompt's author wrote rather than as something it said.
 */
export function promptBlocks(result: GetPromptResult): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  let images = 0;
  for (const message of result.messages) {
    const quoted = message.role === "assistant";
    const block = contentBlock(message.content, () => images < MAX_IMAGES && ++images > 0);
    if (block.type === "text" && quoted) blocks.push({ type: "text", text: `(The prompt's example of an assistant answer:)\n${block.text}` });
    else blocks.push(block);
  }
  return blocks;
}

function contentBlock(content: ContentBlock, roomForImage: () => boolean): PromptBlock {
  switch (content.type) {
    case "text":
      return { type: "text", text: limitOutput(content.text ?? "") };
    case "image": {
      const image = imageBlock(content.data, content.mimeType, roomForImage);
      return image ?? { type: "text", text: `[image ${content.mimeType ?? "of unknown type"}, ${sizeOf(content.data)}: not sent]` };
    }
    case "resource": {
      const { uri = "(no uri)", text, blob, mimeType } = content.resource ?? {};
      if (text !== undefined) return { type: "text", text: `Resource ${uri}${mimeType ? ` (${mimeType})` : ""}:\n${limitOutput(text)}` };
      const image = imageBlock(blob, mimeType, roomForImage);
      return image ?? { type: "text", text: `[binary resource ${uri}, ${mimeType ?? "unknown type"}, ${sizeOf(blob)}: not shown]` };
    }
    case "resource_link":
      return { type: "text", text: `[resource link ${content.uri ?? ""}${content.name ? ` (${content.name})` : ""}]` };
    default:
      return { type: "text", text: `[${content.type} content${content.mimeType ? `, ${content.mimeType}` : ""}: not sent]` };
  }
}

function imageBlock(data: string | undefined, mimeType: string | undefined, roomForImage: () => boolean): PromptBlock | undefined {
  if (data === undefined || !IMAGE_MEDIA_TYPES.includes(mimeType as ImageMediaType)) return undefined;
  if (data.length > MAX_IMAGE_BASE64_CHARS || !roomForImage()) return undefined;
  return { type: "image", mediaType: mimeType as ImageMediaType, data };
}

function sizeOf(base64: string | undefined): string {
  const bytes = Math.floor(((base64 ?? "").length * 3) / 4);
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
