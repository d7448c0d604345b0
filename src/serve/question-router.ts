import * as v from "valibot";
import { log } from "../log.ts";
import { McpError } from "../mcp/light-index.ts";
import { checkSamplingResult, type ElicitationHandler, type ElicitResult, type RelayedRoot, type RequestRelay, type ServerPool } from "../mcp/index.ts";
import { ErrorCode } from "../mcp/protocol.ts";
import { ListRootsResult } from "../mcp/stateless-protocol.ts";
import { clientAnswer, NotAsked, type ClientAsk, type RelayedQuestion } from "./client-questions.ts";
import { MAX_CLIENT_ROOTS } from "./client-roots.ts";

/** Who is asked on behalf of one upstream call: the client that made the call, in its own era's way. */
export interface CallQuestions {
  /** The configured server the call went to. */
  server: string;
  /** The signal the call was sent upstream with (a modern upstream asks under it). */
  signal: AbortSignal;
  ask: ClientAsk;
}

/**
 * The servers' questions (elicitation), sampling requests and in-call `roots/list`, routed to the
 * client call they belong to. The pool has one answerer for every server, but `mcp serve` may have
 * many clients of both eras at once, each call answered its own way (a request to a handshake
 * client, an `input_required` result to a 2026-07-28 one). A question belongs to the upstream call
 * sent with the signal it comes with (a 2026-07-28 upstream asks under its call's signal), or to the
 * call it came during (a handshake upstream over HTTP asks on that call's response stream). Over
 * stdio a handshake upstream's request names no call, so it goes to the oldest call running on the
 * server that asks and not already waiting for an answer of its own (a 2026-07-28 client that never
 * came back for its `input_required` round would otherwise take every later question of that
 * server), else the one asked last (a server that asks several things at once asks them for one
 * call). A question or sampling request outside any call goes to the answerer for those (a stdio
 * client), else it is declined (refused); roots outside a call are cat-code's own.
 */
export class QuestionRouter {
  private readonly calls = new Set<CallQuestions>();
  /** The calls with a question put to their client and not answered yet, and how many. */
  private readonly waiting = new Map<CallQuestions, number>();
  /** When each running call was last asked something (a count of asks, not time). */
  private readonly askedAt = new Map<CallQuestions, number>();
  private asks = 0;
  private outside: ClientAsk | undefined;

  /** Takes the pool's questions (and, in a relaying pool, sampling and roots) over; returns what gives them back. Throws while another front end holds them. */
  attach(pool: ServerPool): () => void {
    return pool.answerQuestionsWith(this.answer, this.relay);
  }

  /** Runs `work` (one upstream call) with its questions put through `questions`. */
  async during<T>(questions: CallQuestions, work: () => Promise<T>): Promise<T> {
    this.calls.add(questions);
    try {
      return await work();
    } finally {
      this.calls.delete(questions);
      this.askedAt.delete(questions);
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
        return clientRoots(await this.put({ method: "roots/list", request }, signal, call, false));
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
    const calls = [...this.calls];
    const onServer = calls.filter((call) => call.server === question.request.server);
    const owner =
      calls.find((call) => call.signal === signal || (during !== undefined && call.signal === during)) ??
      onServer.find((call) => !this.waiting.has(call)) ??
      this.lastAsked(onServer);
    if (owner) return this.asking(owner, question, signal);
    if (outsideToo && this.outside) return this.outside(question, signal);
    return Promise.reject(new NotAsked(`no client call of mcp serve is running on '${question.request.server}'`));
  }

  /** Of calls that all wait already, the one asked last: what a server asks at once, it asks for one call. */
  private lastAsked(calls: CallQuestions[]): CallQuestions | undefined {
    let last: CallQuestions | undefined;
    for (const call of calls) if (!last || (this.askedAt.get(call) ?? 0) > (this.askedAt.get(last) ?? 0)) last = call;
    return last;
  }

  private async asking(owner: CallQuestions, question: RelayedQuestion, signal?: AbortSignal): Promise<unknown> {
    this.askedAt.set(owner, ++this.asks);
    this.waiting.set(owner, (this.waiting.get(owner) ?? 0) + 1);
    try {
      return await owner.ask(question, signal);
    } finally {
      const left = (this.waiting.get(owner) ?? 1) - 1;
      if (left > 0) this.waiting.set(owner, left);
      else this.waiting.delete(owner);
    }
  }
}

/** A root's uri or name longer than this is left out: a path is never that long, and it is the client's text, bounded. */
export const MAX_ROOT_CHARS = 4_096;

/**
 * A client's `roots/list` answer, checked: its first MAX_CLIENT_ROOTS `file://` roots, passed on as
 * it gave them (they are the client's folders: the upstream asked the client, not this machine).
 */
function clientRoots(answer: unknown): RelayedRoot[] {
  const parsed = v.safeParse(ListRootsResult, answer);
  if (!parsed.success) throw new Error(`its roots/list answer is malformed: ${parsed.issues[0].message}`);
  return parsed.output.roots
    .slice(0, MAX_CLIENT_ROOTS)
    .filter((root) => root.uri.length <= MAX_ROOT_CHARS && (root.name?.length ?? 0) <= MAX_ROOT_CHARS)
    .map((root) => ({ uri: root.uri, ...(root.name === undefined ? {} : { name: root.name }) }));
}
