import type { JsonRpcResponse } from "../mcp/protocol.ts";

type Notify = (method: string, params: Record<string, unknown>) => void;
/** Writes one JSON-RPC message (a request of ours to the client) on the stream, before its response. */
type Send = (message: object) => void;

export interface StreamedAnswerOptions {
  /** The client went away before the response (it cancelled the stream): the answer's work is to stop. */
  gone?: () => void;
  /** Called once, when the answer is done (written, or given up after `gone`): the request's place is free. */
  closed?: () => void;
}

/**
 * An HTTP answer as a server-sent event stream, as Streamable HTTP allows: the request's own
 * notifications (its progress) and our requests that belong to it (a server's question) as they
 * come, then its response, which ends the stream. For a request that asked for progress, or a call
 * of a client that can be asked questions; every other answer is plain JSON. The stream counts as
 * open until the answer is done, not until the Response is returned: the work behind it is what
 * the endpoint bounds.
 */
export function streamedAnswer(answer: (notify: Notify, send: Send) => Promise<JsonRpcResponse>, options: StreamedAnswerOptions = {}): Response {
  const encoder = new TextEncoder();
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const event = (message: object) => {
        if (open) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
      };
      // A comment line: Bun sends the headers with the first bytes, and the client should see its stream open at once.
      controller.enqueue(encoder.encode(": cat-code mcp serve\n\n"));
      void answer((method, params) => event({ jsonrpc: "2.0", method, params }), event)
        .then(event, () => {})
        .finally(() => {
          if (open) controller.close();
          open = false;
          options.closed?.();
        });
    },
    // The client closed the stream (a listen stream ended, a call given up): nothing more is written to it, and its work stops.
    cancel() {
      if (!open) return;
      open = false;
      options.gone?.();
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" } });
}

/** Whether a request asked for progress and takes an event stream for its answer. */
export function wantsStream(request: Request, progressToken: unknown): boolean {
  return progressToken !== undefined && (request.headers.get("accept") ?? "").includes("text/event-stream");
}
