import { DEFAULT_IMAGE_LIMITS, ImageBudget } from "../agent/image-budget.ts";
import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { limitOutput, TOOL_OUTPUT_LIMIT } from "../agent/tools/output-limit.ts";
import type { ContentBlock, GetPromptResult } from "../mcp/protocol.ts";
import { DEFAULT_RESOURCE_LIMITS, resourceBlocks } from "../mcp/index.ts";
import { cutText } from "../system/cut-text.ts";
import { base64Bytes, formatBytes } from "../system/format-bytes.ts";

/**
 * A prompt's messages as the user's turn: text as text, images the API takes as images, embedded
 * resources as an `@` mention attaches them (resourceBlocks); anything else is described in one
 * line. The whole stays within what one tool result may put before the model: text past the limit
 * is cut with a note, images past the API's count are described.
 *
 * A turn is the user's, so an assistant-role message cannot be sent as the model's own words: it
 * is quoted, introduced as the prompt's example of an answer, so the model reads it as context the
 * prompt's author wrote (a few-shot example) and not as something it said.
 */
export function promptBlocks(server: string, result: GetPromptResult): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  const images = new ImageBudget();
  let textLeft = TOOL_OUTPUT_LIMIT;
  let imagesLeft = DEFAULT_IMAGE_LIMITS.maxImages;
  for (const [index, message] of result.messages.entries()) {
    if (textLeft <= 0) {
      blocks.push({ type: "text", text: `[${result.messages.length - index} more message(s) of the prompt not shown: the output limit was reached]` });
      break;
    }
    // An embedded resource gets the images the prompt still has room for (resourceBlocks counts its own).
    for (const part of contentBlocks(server, message.content, { textLeft, imagesLeft, images })) {
      if (part.type === "text") textLeft -= part.text.length;
      else imagesLeft--;
      blocks.push(message.role === "assistant" && part.type === "text" ? { type: "text", text: `(The prompt's example of an assistant answer:)\n${part.text}` } : part);
    }
  }
  return blocks;
}

interface Room {
  textLeft: number;
  imagesLeft: number;
  images: ImageBudget;
}

function contentBlocks(server: string, content: ContentBlock, { textLeft, imagesLeft, images }: Room): PromptBlock[] {
  switch (content.type) {
    case "text":
      return [{ type: "text", text: limitOutput(content.text ?? "", textLeft) }];
    case "image": {
      const verdict = images.take(content.data ?? "", content.mimeType);
      return verdict.image ? [verdict.image] : [{ type: "text", text: verdict.line }];
    }
    case "resource": {
      const { uri = "", ...rest } = content.resource ?? {};
      return resourceBlocks(server, [{ uri, ...rest }], { ...DEFAULT_RESOURCE_LIMITS, textChars: textLeft, images: { ...DEFAULT_IMAGE_LIMITS, maxImages: Math.max(imagesLeft, 0) } });
    }
    case "resource_link":
      return [{ type: "text", text: `[resource link ${server}:${cutText(content.uri ?? "", 500)}]` }];
    default: {
      const size = content.data === undefined ? "" : `, ${formatBytes(base64Bytes(content.data))}`;
      return [{ type: "text", text: `[${cutText(content.type, 40)} content${content.mimeType ? `, ${cutText(content.mimeType, 100)}` : ""}${size}: not sent]` }];
    }
  }
}
