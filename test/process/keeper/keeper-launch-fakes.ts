import { chmodSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import type { KeeperPaths } from "../../../src/keeper/keeper-paths.ts";
import { KEEPER_PROTOCOL, type KeeperOp } from "../../../src/keeper/keeper-protocol.ts";
import { TextLineSplitter } from "../../../src/mcp/transport/text-line-splitter.ts";
import { BUN } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/**
 * Something on the keeper's socket that is not a working keeper of ours: it writes a keeper.json
 * (with a made-up pid) and answers as told: never (hung), or hello as some version (another one
 * obeys `stop`), dropping the connection at `dropOn` if given, answering connect with `connectWith`
 * if given, or as a keeper of protocol 2 did before the keeper spoke JSON-RPC (a line without `op`
 * refused with id 0, the socket closed).
 */
export class FakeKeeper {
  /** Each JSON-RPC request read, flat: its method as `op`, its params beside. */
  readonly requests: Array<{ id: number; op: string; [param: string]: unknown }> = [];
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server) {}

  static async start(paths: KeeperPaths, behaviour: { answers: false; version?: string } | { answers: true; version: string; dropOn?: KeeperOp; connectWith?: object } | { answers: "protocol-2" }, pid = 4242): Promise<FakeKeeper> {
    const version = behaviour.answers === "protocol-2" ? "?" : (behaviour.version ?? "?");
    const protocol = behaviour.answers === "protocol-2" ? 2 : KEEPER_PROTOCOL;
    writeFileSync(paths.info, JSON.stringify({ pid, version, protocol, token: "ab".repeat(32), startedAt: 1 }), { mode: 0o600 });
    let fake: FakeKeeper | undefined;
    const server = createServer((socket) => {
      fake!.sockets.add(socket);
      socket.on("error", () => {});
      const lines = new TextLineSplitter();
      socket.on("data", (chunk: Buffer) =>
        lines.push(chunk, (line) => {
          const { id, method, params } = JSON.parse(line) as { id: number; method: string; params?: object };
          const request = { id, op: method, ...params };
          fake!.requests.push(request);
          const answer = (result: object) => socket.write(`${JSON.stringify({ jsonrpc: "2.0", id, result })}\n`);
          if (!behaviour.answers) return;
          if (behaviour.answers === "protocol-2") {
            socket.write(`${JSON.stringify({ id: 0, error: { message: "the keeper refused a request: op: Invalid type", keeper: true } })}\n`);
            return void socket.end();
          }
          if (request.op === behaviour.dropOn) return void socket.destroy();
          if (request.op === "hello") answer({ version: behaviour.version, pid, startedAt: 1 });
          if (request.op === "connect" && behaviour.connectWith) answer(behaviour.connectWith);
          if (request.op === "stop") {
            answer({});
            void fake!.close();
          }
        }),
      );
    });
    fake = new FakeKeeper(server);
    await new Promise<void>((resolve) => server.listen(paths.socket, resolve));
    chmodSync(paths.socket, 0o600); // As a keeper's own: what is refused is tested apart.
    return fake;
  }

  /** Stops listening (the socket file goes) and drops every connection. */
  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A socket file left by a keeper that was killed: nothing listens on it any more. */
export async function staleSocket(paths: KeeperPaths): Promise<void> {
  const child = Bun.spawn([BUN, "-e", `require("node:net").createServer().listen(${JSON.stringify(paths.socket)}, () => console.log("up"))`], { stdout: "pipe" });
  const reader = child.stdout.getReader();
  let out = "";
  await waitFor(async () => {
    const { value } = await reader.read();
    out += new TextDecoder().decode(value ?? new Uint8Array());
    return out.includes("up");
  }, "the socket's owner to listen");
  child.kill("SIGKILL");
  await child.exited;
  chmodSync(paths.socket, 0o600);
}
