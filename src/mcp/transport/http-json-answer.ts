import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import { mediaType } from "./http-session.ts";
import { describeLimit } from "./message-size-limit.ts";
import { parseMessage } from "./parse-message.ts";

export interface JsonAnswerLimits {
  /** The largest answer held, in characters. */
  maxChars: number;
  /** The endpoint, redacted: it goes into messages. */
  shownUrl: string;
  /** The method answered, for messages. */
  method: string;
}

/**
 * A request's answer that is not an event stream: it must be `application/json`, is read within
 * the message limit and parsed; anything else fails with what came instead. Returns the parsed
 * message (or batch), for the caller to find its response in.
 */
export async function readJsonAnswer(response: Response, limits: JsonAnswerLimits): Promise<unknown> {
  const { shownUrl: url, method } = limits;
  const fields = { status: response.status, url };
  const type = mediaType(response);
  if (type !== "application/json") {
    await response.body?.cancel();
    throw new McpError(
      undefined,
      `the server at ${url} answered ${method} with ${response.status} and ${type ? `content type ${type}` : "no content type"}; expected application/json or text/event-stream`,
      fields,
    );
  }
  const text = await readJsonBody(response, limits);
  try {
    return parseMessage(text);
  } catch {
    throw new McpError(ErrorCode.ParseError, `the server at ${url} answered ${method} with invalid JSON: ${text.slice(0, 200)}`, fields);
  }
}

/**
 * The text of a JSON answer, read with a limit: `response.text()` alone would hold whatever a
 * server sends. A body whose declared length is within the limit (and not compressed, which would
 * make the length say nothing of what it unpacks to) is read natively, the leanest way (a 30 MB
 * answer: 2.0x its size at the peak). Any other body is decoded as it arrives (a character split
 * between chunks decodes whole) and joined once (2.4x); past `maxChars` it is abandoned and the
 * request fails.
 */
async function readJsonBody(response: Response, limits: JsonAnswerLimits): Promise<string> {
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
