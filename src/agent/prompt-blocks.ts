/** The image types the Messages API takes as image blocks; anything else is described in text. */
export const IMAGE_MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** An image for the model: base64 data of one of the types the API takes. */
export interface ImageBlock {
  type: "image";
  mediaType: ImageMediaType;
  /** Base64, as MCP carries it. */
  data: string;
}

/** A PDF for the model (read_file on a PDF): base64 data the API reads page by page. */
export interface DocumentBlock {
  type: "document";
  mediaType: "application/pdf";
  data: string;
}

/**
 * One part of what the user sends in a turn (typed text, an attached resource, a prompt's message),
 * or of what a tool gives back besides its text. The agent turns them into Messages API blocks.
 */
export type PromptBlock = { type: "text"; text: string } | ImageBlock;
