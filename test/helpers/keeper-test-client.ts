import { existsSync, readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import type { Subprocess } from "bun";
import { keeperPaths, type KeeperPaths } from "../../src/keeper/keeper-paths.ts";
import { KEEPER_EVENT_METHOD, KEEPER_PROTOCOL, type KeeperEvent, type KeeperRequest, type KeeperResult, type ServerRequest } from "../../src/keeper/keeper-protocol.ts";
import { TextLineSplitter } from "../../src/mcp/transport/text-line-splitter.ts";
import type { ServerConfig, ServerEntry } from "../../src/mcp/config/server-config.ts";
import { REPO, tempDir } from "./paths.ts";
import { waitFor } from "./wait-for.ts";
import { catCode } from "./binary.ts";

type Body = KeeperRequest;

/** A final answer as the test looks at it: the result as `ok`, or the error with its data's fields beside code and message. */
export type KeeperAnswer =
  | { id: number; ok: KeeperResult<"hello"> | KeeperResult<"connect"> | KeeperResult<"call"> | KeeperResult<"status"> | KeeperResult<"close"> | Record<string, never> }
  | { id: number | string | null; error: { code: number; message: string; keeper?: true; [field: string]: unknown } };
/** An event of request `id` (0: the heartbeat, for none). */
export type TestKeeperEvent = { id: number; event: KeeperEvent["event"]; [field: string]: unknown };
export type KeeperMessage = KeeperAnswer | TestKeeperEvent;

/**
 * The keeper's protocol from the test's side, written against the contract and nothing else: one
 * socket, JSON-RPC requests with ids, every message kept for the test to look at, answers and
 * `keeper/event` notifications shown flat (`{ id, ok }`, `{ id, error }`, `{ id, event, … }`).
 * (Commands use src/keeper/keeper-client.ts; this one lets a test send what a command never would.)
 */
export class TestKeeperClient {
  readonly messages: KeeperMessage[] = [];
  readonly closed: Promise<void>;
  private nextId = 1;
  private readonly waiting = new Map<number, (answer: KeeperAnswer) => void>();

  private constructor(private readonly socket: Socket) {
    const splitter = new TextLineSplitter();
    socket.on("data", (chunk: Buffer) =>
      splitter.push(chunk, (line) => {
        const message = flat(JSON.parse(line));
        this.messages.push(message);
        if (!("event" in message) && typeof message.id === "number") this.waiting.get(message.id)?.(message);
      }),
    );
    socket.on("error", () => {});
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
  }

  static open(path: string): Promise<TestKeeperClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once("connect", () => resolve(new TestKeeperClient(socket)));
      socket.once("error", reject);
    });
  }

  /** Opens a socket and says hello with the token from keeper.json, as a command of the keeper's own version (`version`: as another). */
  static async greeted(paths: KeeperPaths, version = infoOf(paths).version): Promise<TestKeeperClient> {
    const client = await TestKeeperClient.open(paths.socket);
    const answer = await client.request({ op: "hello", protocol: KEEPER_PROTOCOL, version, token: tokenOf(paths) });
    if (!("ok" in answer)) throw new Error(`hello refused: ${JSON.stringify(answer)}`);
    return client;
  }

  /** Sends a request; resolves with its final answer. */
  request(body: Body): Promise<KeeperAnswer> {
    const id = this.nextId++;
    return this.requestWithId(id, body);
  }

  requestWithId(id: number, body: Body): Promise<KeeperAnswer> {
    const answer = new Promise<KeeperAnswer>((resolve) => this.waiting.set(id, resolve));
    const { op, ...params } = body;
    this.sendLine(JSON.stringify({ jsonrpc: "2.0", id, method: op, params }));
    return answer;
  }

  /** Sends a JSON-RPC notification (`notifications/cancelled`, say). */
  notify(method: string, params: unknown): void {
    this.sendLine(JSON.stringify({ jsonrpc: "2.0", method, params }));
  }

  /** The id the next request gets (to cancel it). */
  get upcomingId(): number {
    return this.nextId;
  }

  sendLine(line: string): void {
    this.socket.write(`${line}\n`);
  }

  events(id: number): TestKeeperEvent[] {
    return this.messages.filter((m): m is TestKeeperEvent => "event" in m && m.id === id);
  }

  close(): void {
    this.socket.destroy();
  }
}

/** A JSON-RPC message from the keeper as the tests read it. */
function flat(message: { id?: number | string | null; result?: unknown; error?: { code: number; message: string; data?: object }; method?: string; params?: unknown }): KeeperMessage {
  if (message.method === KEEPER_EVENT_METHOD) {
    const { requestId = 0, ...event } = message.params as { requestId?: number };
    return { id: requestId, ...event } as TestKeeperEvent;
  }
  if (message.error) {
    const { data, ...error } = message.error;
    return { id: message.id ?? null, error: { ...error, ...data } };
  }
  return { id: message.id as number, ok: message.result as Extract<KeeperAnswer, { ok: unknown }>["ok"] };
}

export function tokenOf(paths: KeeperPaths): string {
  return infoOf(paths).token;
}

function infoOf(paths: KeeperPaths): { token: string; version: string } {
  return JSON.parse(readFileSync(paths.info, "utf8")) as { token: string; version: string };
}

/** A stdio entry as a command resolves it, with the launch context it computed. */
export function stdioServer(name: string, command: string, args: string[] = [], extra: Partial<ServerConfig> = {}, cwd = REPO): ServerRequest {
  const config = { type: "stdio", command, args, env: {}, ...extra } as ServerConfig;
  const entry: ServerEntry = { name, scope: "user", source: "/test/mcp.json", ok: true, config };
  return { entry, launch: { env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, cwd } };
}

/** `cat-code mcp keeper run` as a real process with its own CAT_CODE_HOME; resolves once it serves. */
export async function startKeeperProcess(env: Record<string, string> = {}): Promise<{ home: string; paths: KeeperPaths; process: Subprocess; stderr: () => string }> {
  const home = tempDir("cat-code-keeper-");
  const paths = keeperPaths({ CAT_CODE_HOME: home });
  let stderr = "";
  const child = Bun.spawn([...catCode(), "mcp", "keeper", "run"], {
    env: { ...process.env, CAT_CODE_HOME: home, ...env },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  void (async () => {
    for await (const chunk of child.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  await waitFor(() => existsSync(paths.socket) && existsSync(paths.info), () => `the keeper to serve on ${paths.socket} (stderr: ${stderr})`);
  return { home, paths, process: child, stderr: () => stderr };
}

/** Ends a keeper process the way a user would (its servers closed with it); SIGKILL only if it will not go. */
export async function endKeeperProcess(child: Subprocess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await child.exited;
  clearTimeout(timer);
}
