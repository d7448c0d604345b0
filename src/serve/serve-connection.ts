import * as v from "valibot";
import { log } from "../log.ts";
import { JsonRpcConnection, McpError } from "../mcp/light-index.ts";
import type { ElicitationRequest, ElicitResult, RootsProvider, ServerPool, Transport } from "../mcp/index.ts";
import { ErrorCode } from "../mcp/protocol.ts";
import { adoptClientRoots } from "./client-roots.ts";
import { DownstreamSession } from "./downstream-session.ts";
import type { ServeMethods } from "./serve-methods.ts";

/** A client's answer to a question passed on to it; anything else is a cancel. */
const ClientElicitResult = v.variant("action", [
  v.object({ action: v.literal("accept"), content: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.array(v.string())]))) }),
  v.object({ action: v.literal("decline") }),
  v.object({ action: v.literal("cancel") }),
]);

/**
 * One client connected to `mcp serve` over a message transport (stdio): the JSON-RPC conversation
 * (the project's own rpc layer, as for every peer), a DownstreamSession answering it, and the
 * upstream news passed on: tool list changes and server log messages go to a client that finished
 * its handshake; a server's question (elicitation) goes to a client that declared it can answer;
 * the folders of a client that declared `roots` join the roots the servers are told of.
 * `done` settles when the client goes away; `close()` ends the conversation, safe to call twice.
 */
export class ServeConnection {
  readonly done: Promise<void>;
  private readonly connection: JsonRpcConnection;
  private readonly session: DownstreamSession;
  private readonly stopListening: Array<() => void> = [];

  constructor(
    transport: Transport,
    methods: ServeMethods,
    pool: ServerPool,
    options: { instructions?: () => string | undefined; roots?: RootsProvider } = {},
  ) {
    this.connection = new JsonRpcConnection(transport);
    // What the client asks is answered; nothing we ask the client is ever cancelled by a timer of ours.
    this.session = new DownstreamSession(methods, { notify: (method, params) => this.notify(method, params), instructions: options.instructions });
    this.connection.onRequest = (request, context) => this.session.answer({ method: request.method, params: request.params, signal: context.signal });
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
    const toolsChanged = () => {
      if (this.session.acceptsNotifications) this.notify("notifications/tools/list_changed", {});
    };
    this.stopListening.push(
      pool.on("tools-changed", toolsChanged),
      // The first connects end before any list is answered (the lists wait for them): no change to announce.
      pool.on("server", (event) => (event.kind === "lost" || event.after !== "start" ? toolsChanged() : undefined)),
      pool.on("log", (entry) => this.session.forwardLog(entry)),
    );
    try {
      this.stopListening.push(pool.answerQuestionsWith((request, signal) => this.ask(request, signal)));
    } catch {
      // Another front end holds the questions already: this client's are declined by the pool's default.
    }
  }

  start(): Promise<void> {
    return this.connection.transport.start();
  }

  async close(): Promise<void> {
    this.release();
    await this.connection.close();
  }

  private release(): void {
    for (const stop of this.stopListening.splice(0)) stop();
  }

  private notify(method: string, params: Record<string, unknown>): void {
    this.connection.notify(method, params).catch((error: Error) => log.debug(`mcp serve: could not send ${method}: ${error.message}`));
  }

  /** An upstream server's question, put to the client when it declared elicitation (in the mode asked); declined otherwise. */
  private async ask(request: ElicitationRequest, signal?: AbortSignal): Promise<ElicitResult> {
    const declared = this.session.clientCapabilities.elicitation;
    const modes = declared && (declared.form || declared.url) ? declared : declared ? { form: {} } : undefined;
    if (!modes?.[request.mode]) return { action: "decline" };
    const params =
      request.mode === "form"
        ? { mode: "form", message: `${request.server}: ${request.message}`, requestedSchema: request.requestedSchema }
        : { mode: "url", message: `${request.server}: ${request.message}`, url: request.url, ...(request.elicitationId ? { elicitationId: request.elicitationId } : {}) };
    try {
      const answer = v.safeParse(ClientElicitResult, await this.connection.request("elicitation/create", params, { signal }));
      return answer.success ? (answer.output as ElicitResult) : { action: "cancel" };
    } catch (error) {
      if (!(error instanceof McpError) || error.code !== ErrorCode.MethodNotFound) log.debug(`mcp serve: the client did not answer a question: ${(error as Error).message}`);
      return { action: "cancel" };
    }
  }
}
