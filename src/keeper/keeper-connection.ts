import type { Socket } from "node:net";
import * as v from "valibot";
import type { ServerLogEntry, ServerStatus } from "../mcp/index.ts";
import { JsonRpcConnection, type ServerRequestContext } from "../mcp/light-index.ts";
import { ErrorCode, type JsonRpcMessage, type JsonRpcRequest, type RequestId } from "../mcp/protocol.ts";
import { argumentProblem } from "../terminal/argument-check.ts";
import { CliError } from "../terminal/cli-error.ts";
import { parseKeyValueArguments } from "../terminal/key-value-arguments.ts";
import { declinedElicitation, defaultsOrDecline } from "../terminal/declined-elicitation.ts";
import type { Clock, ClockTimer } from "../system/clock.ts";
import { sameSecret } from "../system/light-crypto.ts";
import { describeIssue } from "../system/schema-issue.ts";
import { keeperFailure, keeperRefusal, keeperUsageError, type KeeperErrorData } from "./keeper-errors.ts";
import { KEEPER_EVENT_METHOD, KEEPER_HEARTBEAT_MS, KEEPER_PROTOCOL, KeeperRequest, type KeeperEvent, type KeeperOp, type KeeperResult } from "./keeper-protocol.ts";
import { KeeperSocketTransport } from "./keeper-socket-transport.ts";
import type { WarmConnections } from "./warm-connections.ts";

/** What a connection needs of the keeper it belongs to. */
interface OwningKeeper {
  readonly token: string;
  readonly warm: WarmConnections;
  /** The longest line a command may send (MAX_KEEPER_LINE_BYTES). */
  readonly maxLineBytes: number;
  /** Times the heartbeat. */
  readonly clock: Clock;
  /** The `ok` of `hello` and of `status` (status adds the connections). */
  identity(): { version: string; pid: number; startedAt: number };
  /** `stop`: closes every server and exits (after the answer is written, or could not be). */
  stop(): void;
}

type Request<Op extends KeeperOp> = Extract<KeeperRequest, { op: Op }>;

/**
 * One command's socket: a `JsonRpcConnection` over a KeeperSocketTransport, `hello` first (with the
 * token, or the socket is closed), then requests handled side by side, each answered with its
 * events and one result or error. The servers a `call` may name are those of this socket's last
 * `connect`. Closing the socket cancels its calls; the servers stay warm.
 */
export class KeeperConnection {
  private greeted = false;
  /**
   * The hello named this keeper's own protocol and version. A command of another build is answered
   * hello, status, close and stop (it replaces this keeper, or asks it to close a server), never
   * connect or call: what they mean to it may not be what they mean here, and a connect comes
   * before the command has read hello's answer.
   */
  private sameBuild = false;
  /** Closed for a broken rule: nothing more it sent is read, and the socket ends after the refusal. */
  private refused = false;
  /** The server names of the last `connect`, each with its connection's fingerprint and status (its tools' schemas). */
  private servers = new Map<string, { fingerprint: string; status: ServerStatus }>();
  /** The last `connect` while it runs: a `call` sent right behind it waits for it (settles, never rejects). */
  private connecting: Promise<unknown> = Promise.resolve();
  private readonly transport: KeeperSocketTransport;
  private readonly connection: JsonRpcConnection;
  /** Connects and calls running: while there are any, a heartbeat goes out. */
  private busy = 0;
  private heartbeat: ClockTimer | undefined;
  /** What is done once the answer to a request is written (or could not be): the socket ends after a refusal, the keeper stops after `stop`'s. */
  private readonly afterAnswer = new Map<RequestId, () => void>();

  constructor(
    private readonly socket: Socket,
    private readonly host: OwningKeeper,
    onClosed: () => void,
  ) {
    this.transport = new KeeperSocketTransport(
      { write: (line, message) => this.write(line, message), end: () => socket.end() },
      { peer: "the command", maxLineBytes: host.maxLineBytes, onBroken: (reason) => this.refuse(reason), jsonRpcOnly: true },
    );
    this.connection = new JsonRpcConnection(this.transport);
    // The command's `notifications/cancelled` aborts the signal of the call it names (the connection stays), as closing the socket aborts all.
    this.connection.onRequest = (request, context) => this.handle(request, context);
    socket.on("data", (chunk: Buffer) => !this.refused && this.transport.receive(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      this.transport.ended("the command closed the connection");
      // An answer not yet sent never will be (its send now fails): what was to follow it is done now.
      for (const then of this.afterAnswer.values()) then();
      this.afterAnswer.clear();
      host.warm.letGo(this);
      this.stopHeartbeat();
      onClosed();
    });
  }

  /** Ends the socket once what was written is sent (the keeper is stopping). */
  end(): void {
    this.socket.end();
  }

  /** Answers one request; what it throws the rpc layer answers as a JSON-RPC error. */
  private async handle(message: JsonRpcRequest, context: ServerRequestContext): Promise<unknown> {
    const params = message.params ?? {};
    const parsed = typeof params === "object" && !Array.isArray(params) ? v.safeParse(KeeperRequest, { ...params, op: message.method }) : undefined;
    if (!parsed?.success) {
      const reason = `the keeper refused a request: ${parsed ? describeIssue(parsed.issues[0]) : "params: must be an object"}`;
      throw this.greeted ? keeperRefusal(reason, ErrorCode.InvalidParams) : this.refusal(message.id, reason);
    }
    const request = parsed.output;
    if (request.op === "hello") return this.hello(message.id, request);
    if (!this.greeted) throw this.refusal(message.id, "say hello first");
    if ((request.op === "connect" || request.op === "call") && !this.sameBuild) {
      const { version } = this.host.identity();
      throw keeperRefusal(`this keeper is another cat-code build (protocol ${KEEPER_PROTOCOL}, version ${version}): it connects and calls only for its own; stop it and start one of yours`);
    }
    // Events and cancellations name their request by a number (KeeperEvent's requestId).
    if (typeof message.id !== "number") throw keeperRefusal("the keeper refused a request: its id must be a number", ErrorCode.InvalidRequest);
    const { id } = message;
    const long = request.op === "connect" || request.op === "call";
    if (long && this.busy++ === 0) this.beat();
    try {
      switch (request.op) {
        case "connect": {
          const connected = this.connect(id, request);
          this.connecting = connected.catch(() => {});
          return await connected;
        }
        case "call":
          return await this.call(id, request, context.signal);
        case "status":
          return { ...this.host.identity(), connections: this.host.warm.info() } satisfies KeeperResult<"status">;
        case "close":
          return { closed: this.host.warm.closeServer(request.server) } satisfies KeeperResult<"close">;
        case "stop":
          this.afterAnswer.set(id, () => this.host.stop());
          return {} satisfies KeeperResult<"stop">;
      }
    } catch (error) {
      throw keeperFailure(error);
    } finally {
      if (long && --this.busy === 0) this.stopHeartbeat();
    }
  }

  /** An `alive` every KEEPER_HEARTBEAT_MS while busy (see KEEPER_SILENCE_MS). */
  private beat(): void {
    this.heartbeat = this.host.clock.setTimeout(() => {
      this.send({ event: "alive" });
      this.beat();
    }, KEEPER_HEARTBEAT_MS);
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) this.host.clock.clearTimeout(this.heartbeat);
    this.heartbeat = undefined;
  }

  private hello(id: RequestId, request: Request<"hello">): KeeperResult<"hello"> {
    if (!sameSecret(request.token, this.host.token)) throw this.refusal(id, "wrong token: this keeper was started by another cat-code; run the command again");
    this.greeted = true;
    this.sameBuild = request.protocol === KEEPER_PROTOCOL && request.version === this.host.identity().version;
    // Another protocol or version is answered all the same: the command sees it and stops this keeper.
    return this.host.identity();
  }

  private async connect(id: number, request: Request<"connect">): Promise<KeeperResult<"connect">> {
    const listener = {
      socket: this,
      onLog: (entry: ServerLogEntry) => this.send({ requestId: id, event: "log", entry }),
      onWarning: (message: string) => this.send({ requestId: id, event: "warning", message }),
    };
    const connected = await this.host.warm.connect(request.servers, request.roots, listener, request.elicitation ?? true, request.callFollows ?? false);
    this.servers = new Map(request.servers.map((server, index) => [server.entry.name, connected[index]!]));
    return { statuses: connected.map((c) => onlyTool(c.status, request.tool)) };
  }

  private async call(id: number, request: Request<"call">, signal: AbortSignal): Promise<KeeperResult<"call">> {
    await this.connecting;
    const server = this.servers.get(request.server);
    if (server === undefined) throw keeperRefusal(`server '${request.server}' was not connected on this socket; send connect first`);
    // A server that did not connect, or a missing tool: the command says so from the connect's status
    // itself (it sends the call before it has that status); nothing goes to the server.
    const tool = server.status.state === "connected" ? server.status.tools.find((t) => t.name === request.tool) : undefined;
    if (tool === undefined) throw keeperRefusal(`server '${request.server}' has no connected tool '${request.tool}' on this socket`);
    const schema = tool.inputSchema as Record<string, unknown>;
    const args = request.pairs === undefined ? request.arguments : convertedPairs(request.pairs, schema);
    // Checked here, against the schema this connect gave the command, as the cold command checks
    // before sending: the command then loads no validator, and says the same line (issue 32).
    const problem = argumentProblem(args, schema);
    if (problem) throw keeperUsageError(problem);
    const { fingerprint } = server;
    const note = (line: string) => this.send({ requestId: id, event: "note", line });
    const result = await this.host.warm.call(fingerprint, request.tool, args, {
      socket: this,
      signal,
      elicitation: request.elicitation === "accept-defaults" ? defaultsOrDecline(note) : declinedElicitation(note),
      onProgress: (progress) => this.send({ requestId: id, event: "progress", progress }),
      onLog: (entry) => this.send({ requestId: id, event: "log", entry }),
    });
    return { result };
  }

  /** A request this socket may not make: it is answered, then the socket is closed. */
  private refusal(id: RequestId, message: string): Error {
    this.refused = true;
    this.afterAnswer.set(id, () => this.socket.end());
    return keeperRefusal(message);
  }

  /** A line that breaks the framing: answered (it has no id), then the socket is closed. */
  private refuse(message: string): void {
    if (this.refused) return;
    this.refused = true;
    const answer: JsonRpcMessage = { jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message, data: { keeper: true } satisfies KeeperErrorData } };
    this.write(`${JSON.stringify(answer)}\n`, answer);
    this.socket.end();
  }

  private send(event: KeeperEvent): void {
    void this.connection.notify(KEEPER_EVENT_METHOD, event).catch(() => {});
  }

  private write(line: string, message: JsonRpcMessage): void {
    if (this.socket.writable) this.socket.write(line);
    // What follows an answer is done though the answer could not be written: a command killed
    // right after sending `stop` still stops the keeper.
    const id = "id" in message && message.id !== null ? message.id : undefined;
    const then = id === undefined || "method" in message ? undefined : this.afterAnswer.get(id);
    if (then === undefined) return;
    this.afterAnswer.delete(id!);
    then();
  }
}

/** key=value words as the command converts them, its mistake (a key the schema lacks, `n=abc` for a number) its usage error. */
function convertedPairs(pairs: string[], schema: Record<string, unknown>): Record<string, unknown> {
  try {
    return parseKeyValueArguments(pairs, schema);
  } catch (error) {
    if (error instanceof CliError) throw keeperUsageError(error.message);
    throw error;
  }
}

/** A status as `connect` asked for it: only the tool the command calls, when there is one of that name. */
function onlyTool(status: ServerStatus, tool: string | undefined): ServerStatus {
  if (tool === undefined || status.state !== "connected") return status;
  const named = status.tools.filter((t) => t.name === tool);
  return named.length === 0 ? status : { ...status, tools: named };
}
