import type { CallToolResult, ContentBlock } from "../protocol.ts";

/**
 * A tool result as text: text blocks as they are, every other block as a one-line placeholder that
 * names its type (and its size or address), since neither a terminal nor our model input takes them.
 */
export function flattenContent(result: CallToolResult): string {
  if (result.content.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return result.content.map(describeBlock).join("\n");
}

function describeBlock(block: ContentBlock): string {
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

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
