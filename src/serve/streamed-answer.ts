import type { JsonRpcResponse } from "../mcp/protocol.ts";

type Notify = (method: string, params: Record<string, unknown>) => void;
/** Writes one JSON-RPC message (a request of ours to the client) on the stream, before its response. */
type Send = (message: object) => void;

/**
 * An HTTP answer as a server-sent event stream, as Streamable HTTP allows: the request's own
 * notifications (its progress) and our requests that belong to it (a server's question) as they
 * come, then its response, which ends the stream. For a request that asked for progress, or a call
 * of a client that can be asked questions; every other answer is plain JSON.
 */
export function streamedAnswer(answer: (notify: Notify, send: Send) => Promise<JsonRpcResponse>, headers: Record<string, string> = {}): Response {
  const encoder = new TextEncoder();
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const event = (message: object) => {
        if (open) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
      };
      const response = await answer((method, params) => event({ jsonrpc: "2.0", method, params }), event);
      event(response);
      if (open) controller.close();
      open = false;
    },
    // The client closed the stream (a listen stream ended, a call given up): nothing more is written to it.
    cancel() {
      open = false;
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", ...headers } });
}

/** Whether a request asked for progress and takes an event stream for its answer. */
export function wantsStream(request: Request, progressToken: unknown): boolean {
  return progressToken !== undefined && (request.headers.get("accept") ?? "").includes("text/event-stream");
}
