import { base64Bytes, formatBytes } from "../../system/format-bytes.ts";
import type { CallToolResult, ContentBlock } from "../protocol.ts";

export { formatBytes };

/**
 * A tool result as text: text blocks as they are, every other block as a one-line placeholder that
 * names its type (and its size or address), since neither a terminal nor our model input takes them.
 */
export function flattenContent(result: CallToolResult): string {
  if (result.content.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return result.content.map(describeContentBlock).join("\n");
}

/** One block as a line of text: a text block as it is, any other as a placeholder. */
export function describeContentBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text ?? "";
    case "image":
    case "audio":
      return `[${block.type}: ${block.mimeType ?? "unknown type"}, ${formatBytes(base64Bytes(block.data ?? ""))}]`;
    case "resource_link":
      return `[resource link: ${block.uri ?? block.name ?? "no uri"}]`;
    case "resource": {
      const resource = block.resource;
      const size = resource?.text !== undefined ? `${resource.text.length} chars` : formatBytes(base64Bytes(resource?.blob ?? ""));
      return `[resource: ${resource?.uri ?? "no uri"}, ${resource?.mimeType ?? "unknown type"}, ${size}]`;
    }
    default:
      return `[${block.type} content]`;
  }
}
