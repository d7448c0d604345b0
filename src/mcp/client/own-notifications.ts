import { log } from "../../log.ts";
import type { JsonRpcNotification } from "../protocol.ts";
import type { ProgressTracker } from "./progress.ts";
import { parseServerLog, type ServerLogEntry } from "./server-log.ts";

/**
 * The server notifications a client acts on itself: progress goes to the call holding its token (the
 * tracker masks its message); a log message, checked, masked with `mask` and bounded, to `onLog`
 * (the debug log without one). Malformed ones and progress no running call asked for go nowhere,
 * with a debug line. Returns false for any other notification.
 */
export function consumeOwnNotification(
  notification: JsonRpcNotification,
  server: string,
  progress: ProgressTracker,
  onLog: ((entry: ServerLogEntry) => void) | undefined,
  shown: (text: string, max: number) => string,
): boolean {
  switch (notification.method) {
    case "notifications/progress":
      if (!progress.handle(notification.params)) log.debug(`${server}: dropped a progress notification no running call asked for`);
      return true;
    case "notifications/message": {
      const entry = parseServerLog(server, notification.params, shown);
      if (!entry) log.debug(`${server}: dropped a malformed notifications/message`);
      else if (onLog) onLog(entry);
      else log.debug(`${server} [${entry.level}] ${entry.data}`);
      return true;
    }
  }
  return false;
}
