import { log } from "../log.ts";
import { McpError } from "../mcp/light-index.ts";
import { checkSamplingResult, type ElicitationHandler, type ElicitResult, type RelayedRoot, type RequestRelay, type ServerPool } from "../mcp/index.ts";
import { ErrorCode } from "../mcp/protocol.ts";
import { systemClock, type Clock } from "../system/clock.ts";
import { clientAnswer, NotAsked, type ClientAsk, type RelayedQuestion } from "./client-questions.ts";
import { localRoots } from "./client-roots.ts";
import { GATHER_MS } from "./input-rounds.ts";

/** Who is asked on behalf of one upstream call: the client that made the call, in its own era's way. */
export interface CallQuestions {
  /** The configured server the call went to. */
  server: string;
  /** The signal the call was sent upstream with (a modern upstream asks under it). */
  signal: AbortSignal;
  /**
   * The client that made the call, one identity for all its calls (its stdio connection, its HTTP
   * handshake session; a 2026-07-28 request over HTTP is its own): a request that names no call is
   * given to a call only when no other client could own it.
   */
  client: object;
  ask: ClientAsk;
}

/** Who a request goes to: a call (`guessed` when nothing named it), or no call, and why. */
type Owner = { call: CallQuestions; guessed: boolean } | { call: undefined; outsideAnyCall: boolean; why: string };

/**
 * The servers' questions (elicitation), sampling requests and in-call `roots/list`, routed to the
 * client call they belong to, never to another client's. The pool has one answerer for every
 * server, but `mcp serve` may have many clients of both eras at once, each call answered its own
 * way (a request to a handshake client, an `input_required` result to a 2026-07-28 one).
 *
 * A request belongs to the upstream call sent with the signal it comes with (a 2026-07-28 upstream
 * asks under its call's signal), or to the call it came during (a handshake upstream over HTTP asks
 * on that request's response stream): when the transport names a request that is not a call (a
 * completion, a list) or a call that has ended, it is outside any call, never guessed. Over stdio
 * a handshake upstream's request names no call, so its owner is guessed, only where no other
 * client could own it: of the calls on that server not already waiting for an answer of their own
 * (a 2026-07-28 client that never came back for its `input_required` round would otherwise take
 * every later request of that server), the oldest when they are all one client's; when every call
 * there waits, the one asked last while its round still gathers (`gatherMs`: what a server sends
 * at once, it sends for one call); otherwise (calls of two clients, or a round long sent) it is
 * not passed on (a debug line says why). A guessed owner is told so: answers its client gave
 * before it was asked do not answer it, and its call is not failed for it (see InputRounds).
 *
 * A question or sampling request outside any call goes to the answerer for those (a stdio client),
 * else it is declined (refused); roots outside a call are cat-code's own.
 */
export class QuestionRouter {
  private readonly calls = new Set<CallQuestions>();
  /** The signal of every call run here: a request under one of an ended call's is outside any call, not guessed. */
  private readonly callSignals = new WeakSet<AbortSignal>();
  /** The calls with a question put to their client and not answered yet, and how many. */
  private readonly waiting = new Map<CallQuestions, number>();
  /** The call asked something last, and when (the clock's time). */
  private lastAsked: { call: CallQuestions; at: number } | undefined;
  private outside: ClientAsk | undefined;

  constructor(
    private readonly clock: Clock = systemClock,
    private readonly gatherMs = GATHER_MS,
  ) {}

  /** Takes the pool's questions (and, in a relaying pool, sampling and roots) over; returns what gives them back. Throws while another front end holds them. */
  attach(pool: ServerPool): () => void {
    return pool.answerQuestionsWith(this.answer, this.relay);
  }

  /** Runs `work` (one upstream call) with its questions put through `questions`. */
  async during<T>(questions: CallQuestions, work: () => Promise<T>): Promise<T> {
    this.calls.add(questions);
    this.callSignals.add(questions.signal);
    try {
      return await work();
    } finally {
      this.calls.delete(questions);
      if (this.lastAsked?.call === questions) this.lastAsked = undefined;
    }
  }

  /** Who is asked what comes outside any call; returns what gives it back. */
  answerOutsideCallsWith(ask: ClientAsk): () => void {
    this.outside = ask;
    return () => {
      if (this.outside === ask) this.outside = undefined;
    };
  }

  /** A question: the client's answer, declined when it was not asked, cancelled when it did not answer well. */
  readonly answer: ElicitationHandler = async (request, signal, call) => {
    try {
      return clientAnswer(await this.put({ method: "elicitation/create", request }, signal, call, true));
    } catch (error) {
      return { action: error instanceof NotAsked ? "decline" : "cancel" } satisfies ElicitResult;
    }
  };

  readonly relay: RequestRelay = {
    // The server that asked hears why when no answer can be had: a client without sampling, its error, a malformed answer.
    sampling: async (request, signal, call) => {
      try {
        return checkSamplingResult(await this.put({ method: "sampling/createMessage", request }, signal, call, true));
      } catch (error) {
        if (error instanceof NotAsked) throw new McpError(ErrorCode.InvalidRequest, `${error.message}; sampling/createMessage of '${request.server}' was not passed on`);
        throw error;
      }
    },
    // Roots are the calling client's when it can give them, else (no call, a handshake client, a bad answer) cat-code's own.
    roots: async (request, signal, call) => {
      try {
        return relayedRoots(await this.put({ method: "roots/list", request }, signal, call, false));
      } catch (error) {
        if (!(error instanceof NotAsked)) log.debug(`mcp serve: the client did not list its roots: ${(error as Error).message}`);
        return undefined;
      }
    },
  };

  /**
   * Puts `question` to the client of the call it belongs to (or, `outsideToo`, to the one for calls
   * outside any). `during`: the call the transport saw it come during (see ElicitationHandler).
   */
  private put(question: RelayedQuestion, signal: AbortSignal | undefined, during: AbortSignal | undefined, outsideToo: boolean): Promise<unknown> {
    const owner = this.ownerOf(question.request.server, signal, during);
    if (owner.call) return this.asking(owner.call, question, signal, owner.guessed);
    if (owner.outsideAnyCall && outsideToo && this.outside) return this.outside(question, signal);
    return Promise.reject(new NotAsked(owner.why));
  }

  /** The call a request of `server` belongs to (see the class comment), or why none. */
  private ownerOf(server: string, signal: AbortSignal | undefined, during: AbortSignal | undefined): Owner {
    const calls = [...this.calls];
    const named = calls.find((call) => call.signal === signal || (during !== undefined && call.signal === during));
    if (named) return { call: named, guessed: false };
    if (during !== undefined || (signal !== undefined && this.callSignals.has(signal))) {
      return { call: undefined, outsideAnyCall: true, why: `'${server}' asked during a request of mcp serve's client that is not a running call` };
    }
    const onServer = calls.filter((call) => call.server === server);
    if (onServer.length === 0) return { call: undefined, outsideAnyCall: true, why: `no client call of mcp serve is running on '${server}'` };
    const free = onServer.filter((call) => !this.waiting.has(call));
    const [oldest] = free;
    if (oldest && free.every((call) => call.client === oldest.client)) return { call: oldest, guessed: true };
    const last = this.lastAsked;
    if (!oldest && last && onServer.includes(last.call) && this.clock.now() - last.at <= this.gatherMs) return { call: last.call, guessed: true };
    const why = oldest
      ? `'${server}' named no call, and calls of more than one client of mcp serve run on it`
      : `'${server}' named no call, and every call on it waits for an answer already`;
    log.debug(`mcp serve: a request was not passed on to any client: ${why}`);
    return { call: undefined, outsideAnyCall: false, why };
  }

  private async asking(owner: CallQuestions, question: RelayedQuestion, signal: AbortSignal | undefined, guessed: boolean): Promise<unknown> {
    this.lastAsked = { call: owner, at: this.clock.now() };
    this.waiting.set(owner, (this.waiting.get(owner) ?? 0) + 1);
    try {
      return await owner.ask(question, signal, guessed);
    } finally {
      const left = (this.waiting.get(owner) ?? 1) - 1;
      if (left > 0) this.waiting.set(owner, left);
      else this.waiting.delete(owner);
    }
  }
}

/** A client's `roots/list` answer as it goes to the server that asked: its folders on this machine (see localRoots), as it gave them. */
function relayedRoots(answer: unknown): RelayedRoot[] {
  return localRoots(answer).map(({ uri, name }) => ({ uri, ...(name === undefined ? {} : { name }) }));
}
