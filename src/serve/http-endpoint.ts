import type { Server } from "bun";
import { ErrorCode, type JsonRpcResponse, type RequestId } from "../mcp/protocol.ts";
import { decodeHeaderValue } from "../mcp/index.ts";
import { MetaKey, ModernErrorCode, MODERN_PROTOCOL_VERSION } from "../mcp/stateless-protocol.ts";
import { isPlainObject } from "../system/plain-object.ts";
import { DownstreamSession, progressTokenOf } from "./downstream-session.ts";
import { allowedAuthorities, plain, refusal } from "./http-guard.ts";
import { HttpSessions, type HttpSession } from "./http-sessions.ts";
import { replyTo } from "../mcp/light-index.ts";
import { paramHeaderMismatch } from "./param-headers.ts";
import { streamedAnswer, wantsStream } from "./streamed-answer.ts";
import type { ServeMethods } from "./serve-methods.ts";

/** The largest request body a client may send (a file written through a tool is the largest real one). */
export const MAX_HTTP_BODY_BYTES = 16 * 2 ** 20;
/** Requests answered at once; past it a client gets 503 and retries, instead of the endpoint growing without bound. */
export const MAX_HTTP_IN_FLIGHT = 256;
/** The one path the endpoint answers on. */
export const MCP_PATH = "/mcp";

export interface HttpEndpointOptions {
  host: string;
  /** 0: a free port from the OS. */
  port: number;
  token: string;
  instructions?: () => string | undefined;
  maxInFlight?: number;
  maxSessions?: number;
}

/**
 * `mcp serve --http`: Streamable HTTP on `host:port/mcp`, both generations. A 2026-07-28 request
 * (its `_meta` names the version) is answered on its own, its `MCP-Protocol-Version`, `Mcp-Method`
 * (and a tool call's `Mcp-Param-*`) headers checked against the body; a handshake client gets an
 * `Mcp-Session-Id` from `initialize`, names it on every later request, may open the GET stream for
 * notifications and ends it with DELETE. Every request passes the guard first (Host, Origin, bearer token); answers
 * are JSON, or an event stream for a request that asked for progress.
 */
export class HttpEndpoint {
  readonly url: string;
  private readonly server: Server<undefined>;
  private readonly sessions: HttpSessions;
  /** Answers 2026-07-28 requests: they carry all they need, so one stateless session serves them all. */
  private readonly modern: DownstreamSession;
  private inFlight = 0;
  private readonly maxInFlight: number;

  constructor(
    private readonly methods: ServeMethods,
    private readonly options: HttpEndpointOptions,
  ) {
    this.maxInFlight = options.maxInFlight ?? MAX_HTTP_IN_FLIGHT;
    this.sessions = new HttpSessions(options.maxSessions);
    this.modern = new DownstreamSession(methods, { notify: () => {}, instructions: options.instructions, manyClients: true });
    let authorities: Set<string> | undefined = new Set<string>();
    this.server = Bun.serve({
      hostname: options.host,
      port: options.port,
      maxRequestBodySize: MAX_HTTP_BODY_BYTES,
      fetch: (request, server) => {
        const refused = refusal(request, authorities, options.token);
        if (refused) return refused;
        // An authenticated call may run as long as its tool does; only strangers are timed out.
        server.timeout(request, 0);
        return this.route(request);
      },
    });
    const port = this.server.port as number;
    authorities = allowedAuthorities(options.host, port);
    const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host;
    this.url = `http://${shownHost}:${port}${MCP_PATH}`;
  }

  /** Tells every handshake session that has its GET stream open. */
  broadcast(send: (session: HttpSession) => void): void {
    for (const session of this.sessions.all()) send(session);
  }

  async stop(): Promise<void> {
    this.sessions.closeAll();
    await this.server.stop(true);
  }

  private async route(request: Request): Promise<Response> {
    if (new URL(request.url).pathname !== MCP_PATH) return plain(404, `not found: the MCP endpoint is ${MCP_PATH}`);
    const sessionId = request.headers.get("mcp-session-id");
    switch (request.method) {
      case "POST": {
        if (this.inFlight >= this.maxInFlight) return plain(503, "too many requests at once; retry", { "Retry-After": "1" });
        this.inFlight++;
        // A request holds its place until answered; a streamed answer keeps it until its stream is done.
        let kept = false;
        let released = false;
        const release = () => {
          if (!released) this.inFlight--;
          released = true;
        };
        try {
          return await this.post(request, sessionId, () => ((kept = true), release));
        } finally {
          if (!kept) release();
        }
      }
      case "GET": {
        const session = sessionId === null ? undefined : this.sessions.get(sessionId);
        if (!session) return plain(sessionId === null ? 400 : 404, "the GET stream needs the Mcp-Session-Id of an initialize session");
        return session.openStream();
      }
      case "DELETE":
        if (sessionId === null) return plain(400, "DELETE needs an Mcp-Session-Id");
        return this.sessions.close(sessionId) ? new Response(null, { status: 204 }) : plain(404, "no such session");
      default:
        return plain(405, "method not allowed: use POST, GET or DELETE", { Allow: "POST, GET, DELETE" });
    }
  }

  /** `keep`: a streamed answer takes the request's place with it, and gives it back (the function returned) when done. */
  private async post(request: Request, sessionId: string | null, keep: () => () => void): Promise<Response> {
    let message: unknown;
    try {
      message = await request.json();
    } catch {
      return json(400, { jsonrpc: "2.0", id: null, error: { code: ErrorCode.ParseError, message: "Parse error: the body is not JSON" } });
    }
    if (!isPlainObject(message) || message.jsonrpc !== "2.0") {
      return json(400, { jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: send one JSON-RPC 2.0 message per POST" } });
    }
    const { id, method, params } = message;
    const isRequest = typeof method === "string" && (typeof id === "string" || typeof id === "number");
    const meta = isPlainObject(params) ? params._meta : undefined;
    const modern = (isPlainObject(meta) && MetaKey.protocolVersion in meta) || request.headers.get("mcp-protocol-version") === MODERN_PROTOCOL_VERSION;
    if (isRequest && modern) return this.modernRequest(request, id as RequestId, method as string, params, meta, keep);

    if (method === "initialize" && isRequest) {
      const session = this.sessions.open(this.methods, this.options.instructions);
      if (!session) return plain(503, "too many sessions; end one (DELETE) or retry later", { "Retry-After": "1" });
      const reply = await replyTo(id as RequestId, session.downstream.answer({ method, params, signal: session.started(id as RequestId) }));
      session.done(id as RequestId);
      if ("error" in reply) this.sessions.close(session.id);
      return json(200, reply, { "Mcp-Session-Id": session.id });
    }
    if (sessionId === null) {
      if (!isRequest) return new Response(null, { status: 202 });
      return json(400, { jsonrpc: "2.0", id: id as RequestId, error: { code: ErrorCode.InvalidRequest, message: "Bad Request: no Mcp-Session-Id; send initialize first (or a 2026-07-28 request with its _meta)" } });
    }
    const session = this.sessions.get(sessionId);
    if (!session) return json(404, { jsonrpc: "2.0", id: (isRequest ? id : null) as RequestId, error: { code: ErrorCode.InvalidRequest, message: "Session not found: initialize again" } });
    if (!isRequest) {
      if (method === "notifications/cancelled") session.cancel(isPlainObject(params) ? params.requestId : undefined);
      else if (typeof method === "string") session.downstream.heard({ jsonrpc: "2.0", method, params: params as Record<string, unknown> | undefined });
      // A response answers one of our questions; any other is stray, and dropped.
      else session.questions.answered(message);
      return new Response(null, { status: 202 });
    }
    const signal = session.started(id as RequestId);
    // A client that goes away (its connection closed, its stream cancelled) cancels the call upstream.
    const gone = () => session.cancel(id);
    request.signal.addEventListener("abort", gone, { once: true });
    const answer = (notify?: (method: string, params: Record<string, unknown>) => void, send?: (message: object) => void) => {
      const ask = send && ((question: Parameters<typeof session.questions.ask>[1], questionSignal?: AbortSignal) => session.questions.ask(send, question, questionSignal));
      return replyTo(id as RequestId, session.downstream.answer({ id: id as RequestId, method: method as string, params, signal, notify, ask })).finally(() => {
        request.signal.removeEventListener("abort", gone);
        session.done(id as RequestId);
      });
    };
    // Progress asked for, or a call whose server may ask the client something: the answer is a stream that carries them; otherwise plain JSON.
    const { elicitation, sampling } = session.downstream.clientCapabilities;
    const askable = method === "tools/call" && (elicitation !== undefined || sampling !== undefined);
    if (wantsStream(request, progressTokenOf(meta)) || (askable && wantsStream(request, true))) return streamedAnswer(answer, { gone, closed: keep() });
    return json(200, await answer());
  }

  /** A 2026-07-28 `tools/call`'s `Mcp-Param-*` headers, against the served tool's `x-mcp-header` markings. */
  private async paramMismatch(headers: Headers, method: string, params: unknown): Promise<string | undefined> {
    if (method !== "tools/call" || !isPlainObject(params) || typeof params.name !== "string") return undefined;
    return paramHeaderMismatch(headers, await this.methods.toolInputSchema(params.name), params.arguments);
  }

  /**
   * A 2026-07-28 request: its `_meta` must name the version (400 -32602 otherwise), its headers
   * must agree with its body (400 -32020), as the revision says. A refusal of the revision is a 400,
   * a method it does not have a 404.
   */
  private async modernRequest(request: Request, id: RequestId, method: string, params: unknown, meta: unknown, keep: () => () => void): Promise<Response> {
    if (!isPlainObject(meta) || typeof meta[MetaKey.protocolVersion] !== "string" || !isPlainObject(meta[MetaKey.clientCapabilities])) {
      const message = `Invalid params: a ${MODERN_PROTOCOL_VERSION} request carries _meta with "${MetaKey.protocolVersion}" and "${MetaKey.clientCapabilities}"`;
      return json(400, { jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidParams, message } });
    }
    const mismatch = headerMismatch(request.headers, method, params, meta) ?? (await this.paramMismatch(request.headers, method, params));
    if (mismatch) return json(400, { jsonrpc: "2.0", id, error: { code: ModernErrorCode.HeaderMismatch, message: `Header mismatch: ${mismatch}` } });
    // The request's own signal ends with its connection; a cancelled stream ends the answer too.
    const gone = new AbortController();
    const signal = AbortSignal.any([request.signal, gone.signal]);
    const answer = (notify?: (method: string, params: Record<string, unknown>) => void) => replyTo(id, this.modern.answer({ id, method, params, signal, notify }));
    // A listen request is a stream by nature: its notifications until the client closes it.
    if (method === "subscriptions/listen" || wantsStream(request, progressTokenOf(meta))) return streamedAnswer(answer, { gone: () => gone.abort(), closed: keep() });
    const reply = await answer();
    if (!("error" in reply)) return json(200, reply);
    const code = reply.error.code;
    const status = code === ErrorCode.MethodNotFound ? 404 : Object.values(ModernErrorCode).includes(code as never) ? 400 : 200;
    return json(status, reply);
  }
}

/** The methods whose target a 2026-07-28 request names in `Mcp-Name`, and the param that names it (as the client sends it). */
const NAMED_BY: Record<string, "name" | "uri"> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/** Why a 2026-07-28 request's headers disagree with its body; undefined when they agree. */
function headerMismatch(headers: Headers, method: string, params: unknown, meta: Record<string, unknown>): string | undefined {
  if (headers.get("mcp-protocol-version") !== meta[MetaKey.protocolVersion]) return "the MCP-Protocol-Version header must equal the _meta protocol version";
  const named = headers.get("mcp-method");
  if (named === null || decodeHeaderValue(named) !== method) return "the Mcp-Method header must equal the method";
  const field = NAMED_BY[method];
  const target = field && isPlainObject(params) ? params[field] : undefined;
  if (typeof target !== "string") return undefined;
  const name = headers.get("mcp-name");
  if (name === null || decodeHeaderValue(name) !== target) return `the Mcp-Name header must equal the ${field} in the body`;
  return undefined;
}

function json(status: number, body: JsonRpcResponse, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}
