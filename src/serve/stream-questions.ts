import { McpError } from "../mcp/light-index.ts";
import { ErrorCode } from "../mcp/protocol.ts";
import type { ClientCapabilities } from "../mcp/stateless-protocol.ts";
import { isPlainObject } from "../system/plain-object.ts";
import { checkRoomForQuestion, relayedParams, type RelayedQuestion } from "./client-questions.ts";

/** The longest error message of a client's that is passed on upstream. */
const MAX_CLIENT_ERROR_CHARS = 1_000;

/**
 * Upstream questions and sampling requests put to a handshake client over Streamable HTTP: as a
 * request on the response stream of the call that led to it (the transport allows a server's
 * requests there), answered by the client with a JSON-RPC response it POSTs to the endpoint. Our
 * ids are strings of our own (`cat-code-q-<n>`), so a client's answer cannot be taken for anything else.
 */
export class StreamQuestions {
  private readonly open = new Map<string, { resolve: (answer: unknown) => void; reject: (error: Error) => void }>();
  private asked = 0;

  constructor(private readonly capabilities: () => ClientCapabilities) {}

  /** Puts `question` to the client through `send` (the call's stream) and waits for its answer; NotAsked when it cannot answer it. */
  async ask(send: (message: object) => void, question: RelayedQuestion, signal?: AbortSignal): Promise<unknown> {
    const params = relayedParams(question, this.capabilities(), "handshake");
    checkRoomForQuestion(this.open.size, "the client of mcp serve");
    const id = `cat-code-q-${++this.asked}`;
    return new Promise<unknown>((resolve, reject) => {
      const settled = () => this.open.delete(id);
      this.open.set(id, { resolve: (answer) => settled() && resolve(answer), reject: (error) => settled() && reject(error) });
      signal?.addEventListener("abort", () => this.open.get(id)?.reject(McpError.cancelled(question.method)), { once: true });
      send({ jsonrpc: "2.0", id, method: question.method, params });
    });
  }

  /** A response the client POSTed: the answer to one of our questions (or its error); false when it answers nothing we asked. */
  answered(message: Record<string, unknown>): boolean {
    const open = typeof message.id === "string" ? this.open.get(message.id) : undefined;
    if (!open) return false;
    if ("result" in message) open.resolve(message.result);
    else open.reject(clientError(message.error));
    return true;
  }

  /** The session ended: every open question is cancelled. */
  cancelAll(): void {
    for (const open of [...this.open.values()]) open.reject(McpError.closed("the client's session of mcp serve ended"));
  }
}

/** The client's JSON-RPC error, as an McpError to pass on: its code when it is a number, its message cut. */
function clientError(error: unknown): McpError {
  const code = isPlainObject(error) && Number.isInteger(error.code) ? (error.code as number) : ErrorCode.InternalError;
  const message = isPlainObject(error) && typeof error.message === "string" ? error.message.slice(0, MAX_CLIENT_ERROR_CHARS) : "no message";
  return new McpError(code, `the client of mcp serve answered with an error: ${message}`);
}
