import { chmodSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import type { KeeperPaths } from "../../../src/keeper/keeper-paths.ts";
import { KEEPER_PROTOCOL, type KeeperRequest } from "../../../src/keeper/keeper-protocol.ts";
import { TextLineSplitter } from "../../../src/mcp/transport/text-line-splitter.ts";
import { BUN } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/**
 * Something on the keeper's socket that is not a working keeper of ours: it writes a keeper.json
 * (with a made-up pid) and answers as told: never (hung), or hello as some version (another one
 * obeys `stop`), dropping the connection at `dropOn` if given.
 */
export class FakeKeeper {
  readonly requests: KeeperRequest[] = [];
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server) {}

  static async start(paths: KeeperPaths, behaviour: { answers: false } | { answers: true; version: string; dropOn?: KeeperRequest["op"] }, pid = 4242): Promise<FakeKeeper> {
    writeFileSync(paths.info, JSON.stringify({ pid, version: behaviour.answers ? behaviour.version : "?", protocol: KEEPER_PROTOCOL, token: "ab".repeat(32), startedAt: 1 }), { mode: 0o600 });
    let fake: FakeKeeper | undefined;
    const server = createServer((socket) => {
      fake!.sockets.add(socket);
      socket.on("error", () => {});
      const lines = new TextLineSplitter();
      socket.on("data", (chunk: Buffer) =>
        lines.push(chunk, (line) => {
          const request = JSON.parse(line) as KeeperRequest;
          fake!.requests.push(request);
          if (!behaviour.answers) return;
          if (request.op === behaviour.dropOn) return void socket.destroy();
          if (request.op === "hello") socket.write(`${JSON.stringify({ id: request.id, ok: { version: behaviour.version, pid, startedAt: 1 } })}\n`);
          if (request.op === "stop") {
            socket.write(`${JSON.stringify({ id: request.id, ok: {} })}\n`);
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
