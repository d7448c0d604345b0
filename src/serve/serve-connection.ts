import { log } from "../log.ts";
import { JsonRpcConnection, McpError } from "../mcp/light-index.ts";
import type { RootsProvider, ServerPool, Transport } from "../mcp/index.ts";
import { ErrorCode } from "../mcp/protocol.ts";
import { checkRoomForQuestion, relayedParams, type RelayedQuestion } from "./client-questions.ts";
import { adoptClientRoots } from "./client-roots.ts";
import { announceListChanges } from "./list-announcements.ts";
import { DownstreamSession } from "./downstream-session.ts";
import type { ServeMethods } from "./serve-methods.ts";

/**
 * One client connected to `mcp serve` over a message transport (stdio): the JSON-RPC conversation
 * (the project's own rpc layer, as for every peer), a DownstreamSession answering it, and the
 * upstream news passed on: tool list changes and server log messages go to a client that finished
 * its handshake; a server's question (elicitation) or sampling request goes to a client that declared it can answer;
 * the folders of a client that declared `roots` join the roots the servers are told of.
 * `done` settles when the client goes away; `close()` ends the conversation, safe to call twice.
 */
export class ServeConnection {
  readonly done: Promise<void>;
  private readonly connection: JsonRpcConnection;
  private readonly session: DownstreamSession;
  private readonly stopListening: Array<() => void> = [];
  /** Server requests put to the client and not answered yet (bounded: MAX_OPEN_QUESTIONS). */
  private openQuestions = 0;

  constructor(
    transport: Transport,
    methods: ServeMethods,
    pool: ServerPool,
    options: { instructions?: () => string | undefined; roots?: RootsProvider } = {},
  ) {
    this.connection = new JsonRpcConnection(transport);
    // What the client asks is answered; nothing we ask the client is ever cancelled by a timer of ours.
    this.session = new DownstreamSession(methods, {
      notify: (method, params) => this.notify(method, params),
      instructions: options.instructions,
      ask: (request, signal) => this.ask(request, signal),
    });
    this.connection.onRequest = (request, context) => this.session.answer({ id: request.id, method: request.method, params: request.params, signal: context.signal });
    this.connection.onNotification = (notification) => {
      this.session.heard(notification);
      // The client's folders join the servers' roots once it is ready, and again when it says they changed.
      const { roots } = options;
      const rootsNews = notification.method === "notifications/initialized" || notification.method === "notifications/roots/list_changed";
      if (roots && rootsNews && this.session.clientCapabilities.roots) void adoptClientRoots(() => this.connection.request("roots/list"), roots);
    };
    let ended: () => void = () => {};
    this.done = new Promise((resolve) => (ended = resolve));
    this.connection.onClose = () => {
      this.release();
      ended();
    };
    this.stopListening.push(
      announceListChanges(pool, (method) => {
        if (this.session.acceptsNotifications) this.notify(method, {});
      }),
      pool.on("log", (entry) => this.session.forwardLog(entry)),
    );
    // A question that belongs to no call of a 2026-07-28 request is put to this client too, when it can answer.
    this.stopListening.push(methods.questions.answerOutsideCallsWith((request, signal) => this.ask(request, signal)));
  }

  start(): Promise<void> {
    return this.connection.transport.start();
  }

  async close(): Promise<void> {
    this.release();
    await this.connection.close();
  }

  private release(): void {
    this.session.close();
    for (const stop of this.stopListening.splice(0)) stop();
  }

  private notify(method: string, params: Record<string, unknown>): void {
    this.connection.notify(method, params).catch((error: Error) => log.debug(`mcp serve: could not send ${method}: ${error.message}`));
  }

  /**
   * An upstream server's question or sampling request, put to the client when it declared it can
   * answer (NotAsked otherwise): its raw answer, or its error. A question it does not answer at all
   * is a debug line and a cancel; one the connection's end cut short rejects as well. At most
   * MAX_OPEN_QUESTIONS are open at once (NotAsked past it).
   */
  private async ask(question: RelayedQuestion, signal?: AbortSignal): Promise<unknown> {
    const params = relayedParams(question, this.session.clientCapabilities, "handshake");
    checkRoomForQuestion(this.openQuestions, "the client of mcp serve");
    this.openQuestions++;
    try {
      return await this.connection.request(question.method, params, { signal });
    } catch (error) {
      if (!(error instanceof McpError) || error.code !== ErrorCode.MethodNotFound) log.debug(`mcp serve: the client did not answer ${question.method}: ${(error as Error).message}`);
      throw error;
    } finally {
      this.openQuestions--;
    }
  }
}
