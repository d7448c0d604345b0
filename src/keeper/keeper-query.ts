import { connect } from "node:net";
import { TextLineSplitter } from "../mcp/transport/text-line-splitter.ts";
import { readKeeperInfo } from "./keeper-info.ts";
import type { KeeperPaths } from "./keeper-paths.ts";
import { KEEPER_PROTOCOL, MAX_KEEPER_LINE_BYTES, type KeeperAnswer, type KeeperRequest } from "./keeper-protocol.ts";

type Ok<T> = Extract<KeeperAnswer, { ok: unknown }>["ok"] & T;

/**
 * One question to the running keeper, for `mcp keeper status` and `stop`: hello with the token from
 * `keeper.json`, one request, its answer. Undefined when no keeper answers (none running, a stale
 * socket); throws with the keeper's message when it refuses. Commands that call servers use
 * keeper-client.ts; this is only the short exchange of the keeper's own subcommands.
 */
export async function askKeeper<T>(
  paths: KeeperPaths,
  request: Extract<KeeperRequest, { op: "status" | "stop" }>["op"],
  version: string,
  timeoutMs = 2000,
): Promise<Ok<T> | undefined> {
  const info = readKeeperInfo(paths.info);
  if (!info) return undefined;
  return new Promise((resolve, reject) => {
    const socket = connect(paths.socket);
    const splitter = new TextLineSplitter();
    const timer = setTimeout(() => finish(() => reject(new Error(`the keeper (pid ${info.pid}) did not answer within ${timeoutMs} ms; if it hangs, end it with: kill ${info.pid}`))), timeoutMs);
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      socket.destroy();
      settle();
    };
    socket.once("connect", () => {
      socket.write(`${JSON.stringify({ id: 1, op: "hello", protocol: KEEPER_PROTOCOL, version, token: info.token })}\n`);
      socket.write(`${JSON.stringify({ id: 2, op: request })}\n`);
    });
    socket.on("data", (chunk: Buffer) => {
      splitter.push(chunk, (line) => {
        let answer: KeeperAnswer;
        try {
          answer = JSON.parse(line) as KeeperAnswer;
        } catch {
          return finish(() => reject(new Error("the keeper answered with a line that is not JSON")));
        }
        if ("error" in answer) return finish(() => reject(new Error(answer.error.message)));
        if (answer.id === 2) finish(() => resolve(answer.ok as Ok<T>));
      });
      if (splitter.pendingLength > MAX_KEEPER_LINE_BYTES) finish(() => reject(new Error("the keeper's answer is too long")));
    });
    socket.once("error", () => finish(() => resolve(undefined)));
    socket.once("close", () => finish(() => resolve(undefined)));
  });
}
