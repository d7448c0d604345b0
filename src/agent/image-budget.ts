import { base64Bytes, formatBytes } from "../system/format-bytes.ts";
import { readBase64ImageHeader, type ImageHeader } from "./image-header.ts";
import type { ImageBlock } from "./prompt-blocks.ts";

/**
 * What the Messages API takes, so an image never makes it refuse a request: a refused image stays
 * in the conversation and would fail every request after it. The API counts an image's size as its
 * base64 length (5 MB), refuses sides over 8000 px, and an answer gets at most 20 images here.
 */
export interface ImageLimits {
  maxBase64Chars: number;
  maxImages: number;
  maxSide: number;
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = { maxBase64Chars: 5 * 1024 * 1024, maxImages: 20, maxSide: 8000 };

/** An image the model gets (with the line that stands for it in text), or only a line saying why not. */
export type ImageVerdict = { image: ImageBlock; line: string } | { image?: undefined; line: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decides, image by image, what goes to the model from one tool result or one attachment: images
 * of a type the API takes, whose bytes are what they claim, within the size and count limits.
 * Anything else is described in one line instead of being sent.
 */
export class ImageBudget {
  private taken = 0;

  constructor(private readonly limits: ImageLimits = DEFAULT_IMAGE_LIMITS) {}

  /** `name` (a resource's address) goes into the line, so the model knows which image is which. */
  take(data: string, declaredType: string | undefined, name?: string): ImageVerdict {
    const base64 = /\s/.test(data) ? data.replace(/\s+/g, "") : data;
    const bytes = base64Bytes(base64);
    const refused = (why: string) => ({ line: `[image${name ? ` ${name}` : ""}: ${declaredType ?? "unknown type"}, ${formatBytes(bytes)}: not shown, ${why}]` });
    if (base64.length % 4 !== 0 || !BASE64.test(base64)) return refused("its data is not valid base64");
    const header = readBase64ImageHeader(base64);
    if (!header) return refused("it is not a PNG, JPEG, GIF or WebP image");
    if (base64.length > this.limits.maxBase64Chars) return refused(`it is over the ${formatBytes((this.limits.maxBase64Chars * 3) / 4)} limit (${formatBytes(this.limits.maxBase64Chars)} as base64)`);
    const { width = 0, height = 0 } = header;
    if (width > this.limits.maxSide || height > this.limits.maxSide) return refused(`${width}×${height} px is over the ${this.limits.maxSide} px limit`);
    if (this.taken >= this.limits.maxImages) return refused(`more than ${this.limits.maxImages} images`);
    this.taken++;
    return { image: { type: "image", mediaType: header.mediaType, data: base64 }, line: describeImage(header, bytes, name) };
  }
}

/** `[image 64×64 png]`, or `[image png, 3.9 KB]` when the header has no size. */
export function describeImage(header: ImageHeader, bytes: number, name?: string): string {
  const what = name ? `image ${name}` : "image";
  return header.width !== undefined && header.height !== undefined
    ? `[${what} ${header.width}×${header.height} ${header.format}]`
    : `[${what} ${header.format}, ${formatBytes(bytes)}]`;
}
