import { ImageBudget } from "../../agent/image-budget.ts";
import type { ImageBlock } from "../../agent/prompt-blocks.ts";
import { limitOutput } from "../../agent/tools/output-limit.ts";
import type { CallToolResult } from "../protocol.ts";
import { describeContentBlock, flattenContent } from "./flatten-content.ts";

/**
 * A tool result as the model gets it: the text (capped like every tool's output), with each image
 * the API can take sent as an image and standing in the text as one line (`[image 64×64 png]`);
 * images it cannot take, and every other kind of block, are described in the text instead.
 */
export function modelContent(result: CallToolResult, budget = new ImageBudget()): { content: string; images: ImageBlock[] } {
  if (!result.content.some((block) => block.type === "image")) return { content: limitOutput(flattenContent(result)), images: [] };
  const images: ImageBlock[] = [];
  const lines = result.content.map((block) => {
    if (block.type !== "image" || block.data === undefined) return describeContentBlock(block);
    const verdict = budget.take(block.data, block.mimeType);
    if (verdict.image) images.push(verdict.image);
    return verdict.line;
  });
  return { content: limitOutput(lines.join("\n")), images };
}
