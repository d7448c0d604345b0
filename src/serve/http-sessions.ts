import { randomUUID } from "node:crypto";
import { log } from "../log.ts";
import type { RequestId } from "../mcp/protocol.ts";
import { DownstreamSession } from "./downstream-session.ts";
import type { ServeMethods } from "./serve-methods.ts";
import { StreamQuestions } from "./stream-questions.ts";

/** How many handshake sessions `mcp serve --http` holds at once: far more than a machine's clients, few enough to bound memory. */
export const MAX_HTTP_SESSIONS = 100;

/**
 * One `initialize` session over HTTP (`Mcp-Session-Id`): its DownstreamSession, the requests it is
 * answering (for `notifications/cancelled`), and its standalone GET stream, where the notifications
 * that belong to no request go (list changes, server logs).
 */
export class HttpSession {
  readonly id = randomUUID();
  readonly downstream: DownstreamSession;
  /** Upstream questions put to this client on its calls' response streams. */
  readonly questions: StreamQuestions;
  private readonly running = new Map<RequestId, AbortController>();
  private stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  private readonly encoder = new TextEncoder();

  constructor(methods: ServeMethods, instructions?: () => string | undefined) {
    this.downstream = new DownstreamSession(methods, { notify: (method, params) => this.push(method, params), instructions });
    this.questions = new StreamQuestions(() => this.downstream.clientCapabilities);
  }

  /** A signal for request `id` that `cancel(id)` and `close()` abort; `done(id)` forgets it. */
  started(id: RequestId): AbortSignal {
    const controller = new AbortController();
    this.running.set(id, controller);
    return controller.signal;
  }

  done(id: RequestId): void {
    this.running.delete(id);
  }

  cancel(id: unknown): void {
    if (typeof id === "string" || typeof id === "number") this.running.get(id)?.abort(new Error("the client cancelled the request"));
  }

  /** The standalone SSE stream (GET); a second one replaces the first. */
  openStream(): Response {
    this.stream?.close();
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.stream = controller;
        // A comment line: the client sees the stream open at once.
        controller.enqueue(this.encoder.encode(": cat-code mcp serve\n\n"));
      },
      cancel: () => {
        this.stream = undefined;
      },
    });
    return new Response(body, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "Mcp-Session-Id": this.id } });
  }

  /** Neither answering a request nor holding a GET stream: a client that went away without DELETE looks like this. */
  get idle(): boolean {
    return this.running.size === 0 && this.stream === undefined;
  }

  /** A notification that belongs to no request (a list change), once the client finished its handshake. */
  announce(method: string, params: Record<string, unknown>): void {
    if (this.downstream.acceptsNotifications) this.push(method, params);
  }

  close(): void {
    for (const controller of this.running.values()) controller.abort(new Error("the session was closed"));
    this.running.clear();
    this.questions.cancelAll();
    this.downstream.close();
    try {
      this.stream?.close();
    } catch {
      // Already closed by the client.
    }
    this.stream = undefined;
  }

  private push(method: string, params: Record<string, unknown>): void {
    const stream = this.stream;
    if (!stream) return;
    try {
      stream.enqueue(this.encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", method, params })}\n\n`));
    } catch (error) {
      log.debug(`mcp serve: could not send ${method} to session ${this.id}: ${(error as Error).message}`);
      this.stream = undefined;
    }
  }
}

/**
 * The sessions of one endpoint, by id, at most MAX_HTTP_SESSIONS. Kept in the order of their last
 * use: at the bound, the least recently used idle one is ended to make room (a client that went
 * away without DELETE must not lock the others out); only when every one is busy is a new one refused.
 */
export class HttpSessions {
  private readonly sessions = new Map<string, HttpSession>();

  constructor(private readonly max = MAX_HTTP_SESSIONS) {}

  /** A new session, or undefined when the endpoint holds as many as it may and all are busy. */
  open(methods: ServeMethods, instructions?: () => string | undefined): HttpSession | undefined {
    if (this.sessions.size >= this.max) {
      const idle = [...this.sessions.values()].find((session) => session.idle);
      if (!idle) return undefined;
      this.close(idle.id);
    }
    const session = new HttpSession(methods, instructions);
    this.sessions.set(session.id, session);
    return session;
  }

  /** The session, now its most recently used. */
  get(id: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    if (session) {
      this.sessions.delete(id);
      this.sessions.set(id, session);
    }
    return session;
  }

  close(id: string): boolean {
    const session = this.sessions.get(id);
    session?.close();
    return this.sessions.delete(id);
  }

  all(): Iterable<HttpSession> {
    return this.sessions.values();
  }

  closeAll(): void {
    for (const id of [...this.sessions.keys()]) this.close(id);
  }
}
