import { formatBytes } from "../../system/format-bytes.ts";
import { ImageBudget } from "../image-budget.ts";
import { readImageHeader } from "../image-header.ts";
import type { DocumentBlock } from "../prompt-blocks.ts";
import type { ToolResult } from "../tool.ts";
import { errorResult } from "./tool-input.ts";

/**
 * What the Messages API takes of a PDF: 32 MB per request (read_file's own 10 MB cap comes first)
 * and 100 pages. A refused document would stay in the conversation and fail every request after it.
 */
export const MAX_PDF_PAGES = 100;

/**
 * A file whose bytes say it is an image (PNG, JPEG, GIF, WebP) or a PDF, as the model should get
 * it: the image as an image block, the PDF as a document block, each with one line of text naming
 * it; past the API's limits, an error saying which and what to do instead. Undefined for any other
 * file (read as text). The extension is not trusted: the bytes decide.
 */
export function mediaResult(bytes: Uint8Array, shown: string, budget = new ImageBudget()): ToolResult | undefined {
  const image = readImageHeader(bytes);
  if (image) {
    const verdict = budget.take(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"), image.mediaType, shown);
    if (!verdict.image) return errorResult(`${verdict.line.slice(1, -1)}; describe what you need of it to the user, or look at a smaller copy`);
    return { content: verdict.line, isError: false, images: [verdict.image] };
  }
  if (isPdf(bytes)) {
    const pages = pdfPageCount(bytes);
    if (pages > MAX_PDF_PAGES) {
      return errorResult(`${shown} is a PDF of about ${pages} pages; the model takes at most ${MAX_PDF_PAGES} per document: extract the pages you need (e.g. bash: pdftotext -f 1 -l 20 ${shown} -)`);
    }
    const document: DocumentBlock = { type: "document", mediaType: "application/pdf", data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64") };
    const count = pages > 0 ? `, ${pages} page(s)` : "";
    return { content: `[document ${shown}: PDF, ${formatBytes(bytes.length)}${count}]`, isError: false, documents: [document] };
  }
  return undefined;
}

/** `%PDF-` within the first KB, where readers look for it (some files start with junk before it). */
function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).includes("%PDF-");
}

/**
 * The pages a PDF declares: its page objects (`/Type /Page`, not `/Pages`), counted in the bytes.
 * An estimate (a page inside a compressed object stream is not seen), cheap and never more than the
 * real count for an uncompressed file; 0 when none is seen.
 */
export function pdfPageCount(bytes: Uint8Array): number {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  return text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
}
