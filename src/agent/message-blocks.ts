import type { DocumentBlockParam, ImageBlockParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { DocumentBlock, ImageBlock, PromptBlock } from "./prompt-blocks.ts";

/**
 * A user's turn as Messages API blocks: text as text, images as base64 image blocks. Empty text
 * blocks are left out (the API refuses them); a turn with nothing else keeps one, so the API names it.
 */
export function userBlocks(blocks: readonly PromptBlock[]): Array<TextBlockParam | ImageBlockParam> {
  const params = blocks.flatMap((block): Array<TextBlockParam | ImageBlockParam> =>
    block.type === "image" ? [imageParam(block)] : block.text === "" ? [] : [textParam(block.text)],
  );
  return params.length ? params : [textParam("")];
}

export function imageParam(image: ImageBlock): ImageBlockParam {
  return { type: "image", source: { type: "base64", media_type: image.mediaType, data: image.data } };
}

export function documentParam(document: DocumentBlock): DocumentBlockParam {
  return { type: "document", source: { type: "base64", media_type: document.mediaType, data: document.data } };
}

function textParam(text: string): TextBlockParam {
  return { type: "text", text };
}
