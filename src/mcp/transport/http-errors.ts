import { McpError } from "../mcp-error.ts";
import { ErrorCode, JsonRpcErrorObject } from "../protocol.ts";
import * as v from "valibot";

/** How much of an unexpected body goes into an error message. */
const BODY_EXCERPT_CHARS = 200;
/** Enough to hold any JSON-RPC error body a server would send; larger bodies are not read whole. */
const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * A fetch that never got an answer: connection refused, unknown host, TLS failure. The client turns
 * a failed connect into FAILED with this message, so it names the url (redacted) and the cause,
 * never headers.
 */
export function unreachable(shownUrl: string, error: unknown): McpError {
  const cause = error instanceof Error ? error.message : String(error);
  // Not kept as the `cause`: Bun's fetch errors carry the whole URL, query included, in `path`.
  return new McpError(ErrorCode.ConnectionClosed, `cannot reach ${shownUrl}: ${cause}`, { url: shownUrl, kind: "unreachable" });
}

/**
 * The error for an HTTP status that is not a success; `shownUrl` is the redacted endpoint. It keeps
 * the status and url as fields whatever the body says. A JSON-RPC error body is the server's own
 * words and gives the code and message; otherwise the status and the start of the body (an HTML
 * error page, say). The front ends sanitize the text before a terminal sees it.
 */
export async function httpStatusError(shownUrl: string, response: Response, headerNames: readonly string[] = []): Promise<McpError> {
  const body = await readPrefix(response, ERROR_BODY_LIMIT);
  const rpcError = jsonRpcError(body);
  const fields = { status: response.status, url: shownUrl };
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  if (response.status === 401 || response.status === 403) {
    const reason = rpcError?.message ?? firstLine(body);
    return new McpError(rpcError?.code, `the server at ${shownUrl} answered ${status}${reason ? `: ${excerpt(reason)}` : ""}. ${accessHint(response, headerNames)}`, {
      ...fields,
      data: rpcError?.data,
    });
  }
  if (rpcError) {
    const { code, message } = McpError.fromJsonRpc(rpcError);
    return new McpError(code, message, { ...fields, data: rpcError.data });
  }
  const start = excerpt(new TextDecoder("utf-8", { fatal: false }).decode(body.subarray(0, BODY_EXCERPT_CHARS * 4)).trim());
  return new McpError(undefined, `the server at ${shownUrl} answered ${status}${start ? `: ${start}` : " with an empty body"}`, fields);
}

/**
 * What to do about a 401 or 403 that reached the client: OAuth had no say in it (the entry sets its
 * own Authorization header, or the server sent no Bearer challenge). A 403 blames the entry's
 * `headerNames` only when it has some: without them the server's own reason, shown first, is the
 * explanation. The sign-in is named when the server asked for one. Header values are never echoed.
 */
function accessHint(response: Response, headerNames: readonly string[]): string {
  const challenge = response.headers.get("www-authenticate") ?? "";
  const oauth = /(^|[\s,])bearer(\s|,|$)/i.test(challenge)
    ? " The server asks for an OAuth sign-in (WWW-Authenticate: Bearer): remove the Authorization header from the entry's \"headers\" and run cat-code mcp login with the server's name."
    : "";
  const what =
    response.status === 401
      ? `Set "headers" (for example "Authorization": "Bearer \${TOKEN}") in its entry in mcp.json.`
      : headerNames.length > 0
        ? `The credentials in the entry's "headers" (${headerNames.join(", ")}) were refused for this: check the token and its permissions.`
        : "Access was refused for this: check what the account you use there may do.";
  return `${what}${oauth}`;
}

/** A JSON-RPC error object in a body, with or without the envelope; undefined for anything else. */
function jsonRpcError(body: Uint8Array): JsonRpcErrorObject | undefined {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
  const candidate = typeof value === "object" && value !== null && "error" in value ? value.error : undefined;
  return v.is(JsonRpcErrorObject, candidate) ? candidate : undefined;
}

/** The first line of a body that says something. */
function firstLine(body: Uint8Array): string {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(body);
  return text.split(/\r\n|\r|\n/).find((line) => line.trim() !== "")?.trim() ?? "";
}

/** Text from a server, cut for a one-line message: whitespace runs made one space, at most 200 characters. */
function excerpt(text: string): string {
  // A cut through a multi-byte character leaves a replacement character: drop it rather than show it.
  const clean = text.replace(/\s+/g, " ").replace(/\uFFFD$/, "");
  return clean.length > BODY_EXCERPT_CHARS ? `${clean.slice(0, BODY_EXCERPT_CHARS).trimEnd()}…` : clean;
}

/** Reads at most `limit` bytes of a body and lets the rest go, so a huge error page is not downloaded. */
async function readPrefix(response: Response, limit: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // A body cut short still explains the status with what arrived.
  } finally {
    reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks);
}
