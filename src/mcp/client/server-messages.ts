import { log } from "../../log.ts";
import type { JsonRpcNotification, JsonRpcRequest } from "../protocol.ts";
import type { ServerRequestContext } from "../rpc/json-rpc-connection.ts";
import type { ClientFeatureOptions } from "./client-capabilities.ts";
import { answerClientRequest } from "./client-requests.ts";
import type { ProgressTracker } from "./progress.ts";
import { parseServerLog, type ServerLogEntry } from "./server-log.ts";

/*
 * What a server sends the client on its own, the client's part of it: the requests it asks (answered
 * by client-requests.ts), and the notifications the client acts on itself. McpClient hands every
 * notification on to its `onNotification` afterwards.
 */

/**
 * A request of the server's (handshake revisions): ping, a form for the user, our roots, and with
 * a relay sampling; anything else -32601. A question's signal aborts when the server cancels it
 * (its tool was cancelled) or the connection ends (closing the client): the form goes away. Its
 * `call` is the caller's call it came during, when the transport could tell (HTTP: on that call's
 * response stream). `server`: who asks, in questions put to the user.
 */
export function answerServerRequest(request: JsonRpcRequest, context: ServerRequestContext, server: string, features: ClientFeatureOptions): Promise<unknown> {
  // A question waits on a person, and a relayed sampling or roots request on a gateway's client; ping is answered at once.
  const signal = request.method === "ping" ? undefined : context.signal;
  return answerClientRequest(request.method, request.params, { server, features, origin: "server-request", signal, call: context.call });
}

/**
 * The server notifications a client acts on itself: progress goes to the call holding its token (the
 * tracker masks its message); a log message, checked, masked and bounded by `shown`, to `onLog`
 * (the debug log without one). Malformed ones and progress no running call asked for go nowhere,
 * with a debug line. Any other notification is left alone.
 */
export function consumeOwnNotification(
  notification: JsonRpcNotification,
  server: string,
  progress: ProgressTracker,
  onLog: ((entry: ServerLogEntry) => void) | undefined,
  shown: (text: string, max: number) => string,
): void {
  switch (notification.method) {
    case "notifications/progress":
      if (!progress.handle(notification.params)) log.debug(`${server}: dropped a progress notification no running call asked for`);
      return;
    case "notifications/message": {
      const entry = parseServerLog(server, notification.params, shown);
      if (!entry) log.debug(`${server}: dropped a malformed notifications/message`);
      else if (onLog) onLog(entry);
      else log.debug(`${server} [${entry.level}] ${entry.data}`);
    }
  }
}
