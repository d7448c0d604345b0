import { McpError } from "../mcp-error.ts";
import { describeLimit } from "./message-size-limit.ts";

/**
 * The text of a JSON answer, read with a limit: `response.text()` would hold whatever a server
 * sends. Chunks are decoded as they arrive (a character split between chunks decodes whole) and
 * joined once, so a large answer is held as text pieces and then one string, not bytes and text.
 * Past `maxChars` the body is abandoned and the request fails.
 */
export async function readJsonBody(response: Response, limits: { maxChars: number; shownUrl: string; method: string }): Promise<string> {
  if (!response.body) return "";
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const pieces: string[] = [];
  let length = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const piece = decoder.decode(value, { stream: true });
      length += piece.length;
      if (length > limits.maxChars) {
        throw new McpError(
          undefined,
          `the server at ${limits.shownUrl} answered ${limits.method} with more than ${describeLimit(limits.maxChars)} of JSON; it was refused`,
          { status: response.status, url: limits.shownUrl },
        );
      }
      pieces.push(piece);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  pieces.push(decoder.decode());
  return pieces.join("");
}
