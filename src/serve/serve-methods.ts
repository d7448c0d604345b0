import { isCancellation, McpError } from "../mcp/light-index.ts";
import { isPlainObject } from "../system/plain-object.ts";
import type { ServerPool, ServerStatus } from "../mcp/index.ts";
import { ErrorCode, type CallToolResult, type RequestId } from "../mcp/protocol.ts";
import { type ClientCapabilities, ModernErrorCode, type ProgressToken } from "../mcp/stateless-protocol.ts";
import { askNobody, relayedParams, type ClientAsk, type RelayedQuestion } from "./client-questions.ts";
import { ANSWER_WAIT_MS, GATHER_MS, InputRounds, MAX_WAITING_CALLS, type ProgressSink } from "./input-rounds.ts";
import { systemClock } from "../system/clock.ts";
import { listen } from "./listen-stream.ts";
import { QuestionRouter } from "./question-router.ts";
import { ServedSubscriptions, type Subscriber } from "./served-subscriptions.ts";
import { CallToolParams, CompleteParams, GetPromptParams, ListParams, parseParams, ReadResourceParams } from "./serve-params.ts";
import type { ServedBuiltins } from "./served-builtins.ts";
import { UpstreamCatalog } from "./upstream-catalog.ts";

/** What a method is given beside its params: the client's request, as the session saw it. */
export interface MethodContext {
  /** Aborts when the client cancels the request or goes away: the upstream request is cancelled too. */
  readonly signal: AbortSignal;
  /** The client's `_meta.progressToken`: upstream progress is passed on under it. */
  readonly progressToken?: ProgressToken;
  /** Sends a notification to the client that sent the request (progress). */
  notify(method: string, params: Record<string, unknown>): void;
  /** A handshake client's way of being asked an upstream server's question or sampling request; absent: not asked. */
  readonly ask?: ClientAsk;
  /** The id of the client's request (a listen stream's notifications carry it). */
  readonly requestId?: RequestId;
  /** The client, as the resources it subscribes to see it (a handshake session: its subscriptions outlive the request). */
  readonly subscriber?: Subscriber;
  /**
   * Set for a 2026-07-28 request: what it declared it can do (questions come back to it as
   * `input_required`), and the `inputResponses` its first request carried unasked.
   */
  readonly modern?: { capabilities: ClientCapabilities; firstAnswers?: Record<string, unknown> };
  /** Set for a handshake client's request: what it declared at `initialize`. */
  readonly handshakeCapabilities?: ClientCapabilities;
  /**
   * The client the request came from, the same for all its requests (a stdio connection, an HTTP
   * handshake session); absent when requests of one client cannot be told apart from another's (a
   * 2026-07-28 request over HTTP carries no session): each request is then its own client.
   */
  readonly client?: object;
}

/** What `mcp serve` declares, in either era: the union of what its servers may offer. */
export const SERVED_CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
} as const;

/**
 * The feature methods of `mcp serve`, the same in both eras: each asks the upstream server behind
 * a served name and answers with what it said. A tool call that fails upstream (the server died,
 * timed out, wants a sign-in) is an error result for that call, never a failed endpoint, except an
 * upstream's -32021 (a client capability it needs), passed on; the other methods answer a failure
 * as a JSON-RPC error with the upstream's code.
 */
export class ServeMethods {
  readonly catalog: UpstreamCatalog;
  /** Routes the servers' questions to the client call they belong to; a front end attaches it to the pool. */
  readonly questions = new QuestionRouter();
  /** The resources clients subscribed to, passed upstream. */
  readonly subscriptions: ServedSubscriptions;
  /** Upstream calls of 2026-07-28 clients waiting for their answers. */
  readonly rounds: InputRounds;

  /**
   * `ready`: settles once the servers' first connects are over; the methods wait for it, so a
   * client may start its handshake at once and still list every server's tools.
   */
  constructor(
    private readonly pool: ServerPool,
    private readonly ready: Promise<void> = Promise.resolve(),
    options: { warn?: (line: string) => void; builtins?: ServedBuiltins; rounds?: InputRounds; namespaced?: boolean } = {},
  ) {
    this.catalog = new UpstreamCatalog(pool, options.warn, options.namespaced);
    this.rounds = options.rounds ?? new InputRounds(systemClock, ANSWER_WAIT_MS, MAX_WAITING_CALLS, GATHER_MS);
    this.subscriptions = new ServedSubscriptions(this.catalog, pool);
    this.builtins = options.builtins;
  }

  /** cat-code's own tools, with `--builtin`: listed first, under their own names. */
  private readonly builtins: ServedBuiltins | undefined;

  /**
   * The input schema of the tool a client calls by `name`, once the servers' first connects are
   * over; undefined for a name no server has, and for cat-code's own tools (they mark no parameter).
   */
  async toolInputSchema(name: string): Promise<unknown> {
    await this.ready;
    if (this.builtins?.has(name)) return undefined;
    return this.catalog.toolDefinition(name)?.inputSchema;
  }

  /** Whether `method` is one of these (the session answers the others: initialize, ping, …). */
  has(method: string): boolean {
    return Object.hasOwn(this.handlers, method);
  }

  async handle(method: string, params: unknown, context: MethodContext): Promise<unknown> {
    const handler = this.handlers[method];
    if (!handler) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    await this.ready;
    // A 2026-07-28 client's retry with its answers: they go to the request that asked, whatever else the retry says.
    const state = isPlainObject(params) ? params.requestState : undefined;
    if (context.modern && ASKING_METHODS.includes(method)) {
      const { inputResponses } = params as Record<string, unknown>;
      if (typeof state === "string") return this.rounds.resume(state, inputResponses, context.signal, progressTo(context));
      // Answers sent with the first request, before anything was asked: kept for what the call asks under their keys.
      if (isPlainObject(inputResponses)) return handler(params, { ...context, modern: { ...context.modern, firstAnswers: inputResponses } });
    }
    return handler(params, context);
  }

  /**
   * An upstream request during which its server may ask the user something (or sample, or list
   * roots): that goes to the client that sent the request, in its era (an `input_required` round
   * for a 2026-07-28 client, `context.ask` for a handshake one; not asked when it has neither).
   */
  private asking(server: string, context: MethodContext, work: (signal: AbortSignal, onProgress?: ProgressSink) => Promise<unknown>): Promise<unknown> {
    const client = context.client ?? {};
    const run = (signal: AbortSignal, ask: ClientAsk, progress?: ProgressSink) => this.questions.during({ server, signal, client, ask }, () => work(signal, progress));
    const { modern } = context;
    if (!modern) return run(context.signal, context.ask ?? askNobody, progressTo(context));
    // A 2026-07-28 call's progress goes to whichever of its requests (the first, a retry) waits on it now.
    const paramsFor = (question: RelayedQuestion) => relayedParams(question, modern.capabilities, "modern");
    return this.rounds.start(run, context.signal, paramsFor, { firstAnswers: modern.firstAnswers, progress: progressTo(context) });
  }

  private readonly handlers: Record<string, (params: unknown, context: MethodContext) => Promise<unknown>> = {
    "tools/list": async (params) => {
      parseParams(ListParams, params, "tools/list");
      const served = this.catalog.tools().map(({ name, definition }) => ({ ...definition, name }));
      return { tools: [...(this.builtins?.definitions() ?? []), ...served] };
    },
    "tools/call": (params, context) => this.callTool(params, context),
    "resources/list": async (params, { signal }) => {
      parseParams(ListParams, params, "resources/list");
      return { resources: await this.catalog.resources(signal) };
    },
    "resources/templates/list": async (params, { signal }) => {
      parseParams(ListParams, params, "resources/templates/list");
      return { resourceTemplates: await this.catalog.templates(signal) };
    },
    "resources/read": async (params, context) => {
      const { uri } = parseParams(ReadResourceParams, params, "resources/read");
      const upstream = await this.catalog.resource(uri, context.signal);
      if (!upstream) throw new McpError(ErrorCode.InvalidParams, `Resource not found: no connected server lists ${uri}`, { data: { uri } });
      const clientCapabilities = declaredBy(context);
      return this.asking(upstream.server, context, (signal) => upstream.client.readResource(uri, { signal, clientCapabilities }));
    },
    "resources/subscribe": async (params, { signal, subscriber }) => {
      const { uri } = parseParams(ReadResourceParams, params, "resources/subscribe");
      await this.subscriptions.subscribe(uri, subscriberOf(subscriber, "resources/subscribe"), signal);
      return {};
    },
    "resources/unsubscribe": async (params, { signal, subscriber }) => {
      const { uri } = parseParams(ReadResourceParams, params, "resources/unsubscribe");
      await this.subscriptions.unsubscribe(uri, subscriberOf(subscriber, "resources/unsubscribe"), signal);
      return {};
    },
    "subscriptions/listen": (params, context) => {
      // The 2026-07-28 revision's own method: a handshake client subscribes and hears list changes on its session.
      if (!context.modern) throw new McpError(ErrorCode.MethodNotFound, "Method not found: subscriptions/listen (a 2026-07-28 method)");
      return listen(context.requestId, params, { ...context, pool: this.pool, subscriptions: this.subscriptions });
    },
    "prompts/list": async (params, { signal }) => {
      parseParams(ListParams, params, "prompts/list");
      return { prompts: (await this.catalog.prompts(signal)).map(({ name, definition }) => ({ ...definition, name })) };
    },
    "prompts/get": async (params, context) => {
      const { name, arguments: args } = parseParams(GetPromptParams, params, "prompts/get");
      const upstream = await this.catalog.prompt(name, context.signal);
      if (!upstream) throw new McpError(ErrorCode.InvalidParams, unknownName("prompt", name, this.catalog.statusBehind(name)));
      const clientCapabilities = declaredBy(context);
      return this.asking(upstream.server, context, (signal) => upstream.client.getPrompt(upstream.name, args, { signal, clientCapabilities }));
    },
    "completion/complete": async (params, { signal }) => {
      const { ref, argument, context } = parseParams(CompleteParams, params, "completion/complete");
      const upstream = ref.type === "ref/prompt" ? await this.catalog.prompt(ref.name, signal) : await this.catalog.template(ref.uri, signal);
      // Nothing to complete for a name no server has: an empty completion, as a server without values answers.
      if (!upstream) return { completion: { values: [], hasMore: false } };
      const upstreamRef = ref.type === "ref/prompt" ? { type: "ref/prompt" as const, name: upstream.name } : { type: "ref/resource" as const, uri: ref.uri };
      const completion = await upstream.client.complete(upstreamRef, { name: argument.name, value: argument.value }, { signal, context: context?.arguments });
      return { completion };
    },
  };

  private async callTool(params: unknown, context: MethodContext): Promise<unknown> {
    const { name, arguments: args } = parseParams(CallToolParams, params, "tools/call");
    if (this.builtins?.has(name)) return this.builtins.call(name, args, context.signal);
    const upstream = this.catalog.tool(name);
    if (!upstream) {
      const behind = this.catalog.statusBehind(name);
      // A server that is configured but not connected is this call's failure, with the reason (a sign-in to give, a crash).
      if (behind && behind.state !== "connected") return errorResult(unknownName("tool", name, behind));
      throw new McpError(ErrorCode.InvalidParams, unknownName("tool", name, behind));
    }
    const clientCapabilities = declaredBy(context);
    return this.asking(upstream.server, context, async (signal, onProgress) => {
      try {
        return await upstream.client.callTool(upstream.name, args, { signal, onProgress, clientCapabilities });
      } catch (error) {
        if (isCancellation(error)) throw error;
        // The revision wants a client to see what it must declare, and react: not a result's text.
        if (error instanceof McpError && error.code === ModernErrorCode.MissingRequiredClientCapability) throw missingCapability(error);
        return errorResult(`MCP server '${upstream.server}' failed on tool '${upstream.name}': ${(error as Error).message}`);
      }
    });
  }
}

/**
 * What the client of a request declared (its request's `_meta`, or its `initialize`): a 2026-07-28
 * upstream is asked under these (within cat-code's own), so it asks only what this client can answer
 * and may take another path, or refuse with its own -32021. A handshake upstream was told cat-code's
 * capabilities at its `initialize`: what it asks is still filtered per client (client-questions.ts).
 */
function declaredBy(context: MethodContext): ClientCapabilities | undefined {
  return context.modern?.capabilities ?? context.handshakeCapabilities;
}

/** An upstream's -32021 as the client gets it: its code and message, and of its data only `requiredCapabilities`. */
function missingCapability(error: McpError): McpError {
  const required = isPlainObject(error.data) ? error.data.requiredCapabilities : undefined;
  return new McpError(error.code, error.message, isPlainObject(required) ? { data: { requiredCapabilities: required } } : {});
}

/** Progress for the client's request, under its own `_meta.progressToken`; undefined when it asked for none. */
function progressTo(context: MethodContext): ProgressSink | undefined {
  const { progressToken } = context;
  return progressToken === undefined ? undefined : (update) => context.notify("notifications/progress", { progressToken, ...update });
}

/** The requests whose server may ask the user something on the way (MRTR in the 2026-07-28 revision). */
const ASKING_METHODS = ["tools/call", "prompts/get", "resources/read"];

/** Only a client with a session can hold a subscription; a request without one never gets here (the session refuses it first). */
function subscriberOf(subscriber: Subscriber | undefined, method: string): Subscriber {
  if (!subscriber) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  return subscriber;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** Why a served name has no upstream: its server is not connected (and why), or nothing has that name. */
function unknownName(kind: "tool" | "prompt", name: string, behind: ServerStatus | undefined): string {
  if (!behind || behind.state === "connected") return `Unknown ${kind}: ${name}`;
  switch (behind.state) {
    case "needs-auth":
      // The reason names the command that signs in, as this command's flags have it (--mcp-config…).
      return `MCP server '${behind.name}' is not connected: ${behind.reason}; then call ${name} again`;
    case "failed":
    case "invalid":
      return `MCP server '${behind.name}' is not connected: ${behind.reason}`;
    default:
      return `MCP server '${behind.name}' is not connected (${behind.state})`;
  }
}
