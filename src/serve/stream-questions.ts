import type { ElicitationRequest, ElicitResult } from "../mcp/index.ts";
import type { ClientCapabilities } from "../mcp/stateless-protocol.ts";
import { isPlainObject } from "../system/plain-object.ts";
import { clientAnswer, questionParams } from "./client-questions.ts";

/** Questions one HTTP session's client may have open at once; past it one more is declined, so a silent client cannot pile them up. */
export const MAX_OPEN_QUESTIONS = 16;

/**
 * Upstream questions put to a handshake client over Streamable HTTP: as an `elicitation/create`
 * request on the response stream of the call that led to it (the transport allows a server's
 * requests there), answered by the client with a JSON-RPC response it POSTs to the endpoint. Our
 * ids are strings of our own (`cat-code-q-<n>`), so a client's answer cannot be taken for anything else.
 */
export class StreamQuestions {
  private readonly open = new Map<string, (answer: ElicitResult) => void>();
  private asked = 0;

  constructor(private readonly capabilities: () => ClientCapabilities) {}

  /** Puts `request` to the client through `send` (the call's stream) and waits for its answer; declined when it cannot answer one. */
  ask(send: (message: object) => void, request: ElicitationRequest, signal?: AbortSignal): Promise<ElicitResult> {
    const params = questionParams(request, this.capabilities());
    if (!params || this.open.size >= MAX_OPEN_QUESTIONS) return Promise.resolve({ action: "decline" });
    const id = `cat-code-q-${++this.asked}`;
    return new Promise<ElicitResult>((resolve) => {
      const settle = (answer: ElicitResult) => {
        if (this.open.delete(id)) resolve(answer);
      };
      this.open.set(id, settle);
      signal?.addEventListener("abort", () => settle({ action: "cancel" }), { once: true });
      send({ jsonrpc: "2.0", id, method: "elicitation/create", params });
    });
  }

  /** A response the client POSTed: the answer to one of our questions (an error is a cancel); false when it answers nothing we asked. */
  answered(message: Record<string, unknown>): boolean {
    const settle = typeof message.id === "string" ? this.open.get(message.id) : undefined;
    if (!settle) return false;
    settle("result" in message && isPlainObject(message.result) ? clientAnswer(message.result) : { action: "cancel" });
    return true;
  }

  /** The session ended: every open question is cancelled. */
  cancelAll(): void {
    for (const settle of [...this.open.values()]) settle({ action: "cancel" });
  }
}
