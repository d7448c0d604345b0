import { McpError } from "../mcp-error.ts";
import { describeLimit } from "./message-size-limit.ts";

/**
 * The text of a JSON answer, read with a limit: `response.text()` alone would hold whatever a
 * server sends. A body whose declared length is within the limit (and not compressed, which would
 * make the length say nothing of what it unpacks to) is read natively, the leanest way (a 30 MB
 * answer: 2.0x its size at the peak). Any other body is decoded as it arrives (a character split
 * between chunks decodes whole) and joined once (2.4x); past `maxChars` it is abandoned and the
 * request fails.
 */
export async function readJsonBody(response: Response, limits: { maxChars: number; shownUrl: string; method: string }): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  const encoding = response.headers.get("content-encoding") ?? "identity";
  // Bytes bound characters: a declared length within the limit keeps the text within it too.
  // Checked before `body` is touched: in Bun that turns the native read into a stream.
  if (Number.isSafeInteger(declared) && declared <= limits.maxChars && encoding === "identity") return response.text();
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
