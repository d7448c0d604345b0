import { randomUUID } from "node:crypto";
import { McpError } from "../mcp/light-index.ts";
import type { ProgressUpdate } from "../mcp/index.ts";
import { ErrorCode } from "../mcp/protocol.ts";
import { ModernErrorCode, ResultType } from "../mcp/stateless-protocol.ts";
import { isPlainObject } from "../system/plain-object.ts";
import { systemClock, type Clock, type ClockTimer } from "../system/clock.ts";
import { checkRoomForQuestion, NotAsked, wellFormedAnswer, type ClientAsk, type RelayedQuestion } from "./client-questions.ts";

/** How long an upstream call waits for a 2026-07-28 client to come back with its answers before it is given up. */
export const ANSWER_WAIT_MS = 10 * 60_000;
/** An upstream's key longer than this is not kept (one of ours is used): a key is the server's text, bounded. */
export const MAX_KEY_CHARS = 200;
/** How long a round waits, once something is asked, for what the server asks with it (mcp serve's rounds). */
export const GATHER_MS = 5;
/** Upstream calls waiting for answers at once; past it a new request is not asked (a question declined, sampling refused) rather than held. */
export const MAX_WAITING_CALLS = 64;

/** Sends a call's progress to the client request that waits on it now, under that request's own progressToken. */
export type ProgressSink = (update: ProgressUpdate) => void;

/** Runs one upstream call; what its server asks is put through `ask`, its progress through `progress`. */
export type UpstreamRun<T> = (signal: AbortSignal, ask: ClientAsk, progress: ProgressSink) => Promise<T>;

interface Question {
  key: string;
  method: RelayedQuestion["method"];
  params: Record<string, unknown>;
  sent: boolean;
  /** Hands the client's raw answer to the upstream call waiting on it. */
  answer: (answer: unknown) => void;
  /** No answer comes: the client left it out, the call was given up, or the server gave the question up. */
  fail: (error: Error) => void;
}

/** An upstream call begun for a 2026-07-28 client, which may stop to ask it something. */
interface RoundCall {
  /** The `requestState` of its latest round: a new one each round. */
  state: string;
  readonly controller: AbortController;
  outcome: { value: unknown } | { error: unknown } | undefined;
  readonly questions: Question[];
  /** Wakes the round waiting on this call: a question came, or the call ended. */
  wake: () => void;
  /** Set while no round waits: the call is given up when it fires. */
  expiry: ClockTimer | undefined;
  /** A round of the client is waiting on it now. */
  answering: boolean;
  /** Where its progress goes: the request of the round waiting on it, if that asked for progress; between rounds, nowhere. */
  progress: ProgressSink | undefined;
}

/**
 * Multi-round-trip requests (MRTR) toward a 2026-07-28 client: such a client is never sent a
 * request, so what an upstream server asks during its `tools/call` (a question, a sampling
 * request, its roots) ends that request with an `input_required` result (what is asked as
 * `inputRequests`, the waiting call named by an opaque `requestState`). The upstream call goes on
 * meanwhile, waiting for its answer; the client's retry, carrying `inputResponses` and the
 * `requestState`, hands the answers to the waiting requests and waits for the call's next request
 * or its result. A call whose client never comes back is given up after `waitMs`, at most
 * `maxWaiting` wait at once, and a call has at most MAX_OPEN_QUESTIONS requests open (past it one
 * more is not asked). What is asked together goes out in one round (see `gather`).
 */
export class InputRounds {
  private readonly calls = new Map<string, RoundCall>();

  constructor(
    private readonly clock: Clock = systemClock,
    private readonly waitMs = ANSWER_WAIT_MS,
    private readonly maxWaiting = MAX_WAITING_CALLS,
    private readonly gatherMs = 0,
  ) {}

  /** Calls waiting for a client's answers now. */
  get waiting(): number {
    return this.calls.size;
  }

  /**
   * The first round of a call: runs it, answering with its result or, when it asks something, an
   * `input_required` result. `paramsFor`: the params a request goes to the client with (NotAsked,
   * thrown: the client cannot answer it). `firstAnswers`: the `inputResponses` the client sent with
   * its first request, unasked: a well-formed one under the key a request would go out under answers
   * it at once (any other is ignored, as the spec asks of keys a server does not know), unless the
   * request was only guessed to be this call's (see ClientAsk). `progress`:
   * where this request hears the call's progress (each retry brings its own, see `resume`).
   */
  start<T>(
    run: UpstreamRun<T>,
    signal: AbortSignal,
    paramsFor: (question: RelayedQuestion) => Record<string, unknown>,
    options: { firstAnswers?: Record<string, unknown>; progress?: ProgressSink } = {},
  ): Promise<unknown> {
    const call: RoundCall = {
      state: randomUUID(),
      controller: new AbortController(),
      outcome: undefined,
      questions: [],
      wake: () => {},
      expiry: undefined,
      answering: true,
      progress: options.progress,
    };
    let asked = 0;
    const given = new Map(Object.entries(options.firstAnswers ?? {}));
    const ask: ClientAsk = async (relayed, questionSignal, guessed = false) => {
      let params: Record<string, unknown>;
      try {
        params = paramsFor(relayed);
      } catch (error) {
        // A request guessed to be this call's may be another client's: it is not asked, but this call is not failed for it.
        if (!guessed && error instanceof NotAsked && error.requiredCapability) this.missingCapability(call, error.requiredCapability, error.message);
        throw error;
      }
      const key = this.keyFor(call, relayed.request.key, () => `q${++asked}`);
      // Only what this call's own server asked is answered unasked: a guessed request's key (q1, q2…) is no sign it is this client's.
      const early = guessed ? undefined : given.get(key);
      if (early !== undefined && wellFormedAnswer(relayed.method, early)) {
        given.delete(key);
        return early;
      }
      checkRoomForQuestion(call.questions.length, "this call of mcp serve's client");
      if (!this.calls.has(call.state) && this.calls.size >= this.maxWaiting) throw new NotAsked(`${this.maxWaiting} calls of mcp serve wait for their clients already`);
      this.calls.set(call.state, call);
      return new Promise<unknown>((resolve, reject) => {
        const question: Question = { key, method: relayed.method, params, sent: false, answer: resolve, fail: reject };
        // The server gave the request up: it fails, and is not put to the client any more.
        questionSignal?.addEventListener(
          "abort",
          () => {
            if (!question.sent) call.questions.splice(call.questions.indexOf(question), 1);
            reject(McpError.cancelled(relayed.method));
          },
          { once: true },
        );
        call.questions.push(question);
        call.wake();
      });
    };
    run(call.controller.signal, ask, (update) => call.progress?.(update)).then(
      (value) => this.ended(call, { value }),
      (error) => this.ended(call, { error }),
    );
    return this.round(call, signal, options.progress);
  }

  /**
   * A client's retry: `inputResponses` go to the requests of the call `requestState` names, then the
   * next round, whose progress goes to this request (`progress`, under its own token).
   */
  resume(requestState: string, inputResponses: unknown, signal: AbortSignal, progress?: ProgressSink): Promise<unknown> {
    const call = this.calls.get(requestState);
    if (!call) throw new McpError(ErrorCode.InvalidParams, "unknown or expired requestState: no call waits for these answers; call the tool again without it");
    if (call.answering) throw new McpError(ErrorCode.InvalidParams, "this requestState is being answered by another request already");
    call.answering = true;
    if (call.expiry) this.clock.clearTimeout(call.expiry);
    call.expiry = undefined;
    const responses = isPlainObject(inputResponses) ? inputResponses : {};
    for (const question of call.questions.filter((question) => question.sent)) {
      // A request the client left unanswered fails: a question is cancelled, a sampling request refused.
      if (Object.hasOwn(responses, question.key)) question.answer(responses[question.key]);
      else question.fail(new McpError(ErrorCode.InvalidParams, `the client of mcp serve left ${question.method} unanswered`));
    }
    call.questions.splice(0, call.questions.length, ...call.questions.filter((question) => !question.sent));
    return this.round(call, signal, progress);
  }

  /** Waits for the call's next question or its end; the client giving up this round gives the call up. */
  private async round(call: RoundCall, signal: AbortSignal, progress: ProgressSink | undefined): Promise<unknown> {
    const onAbort = () => this.giveUp(call, signal.reason ?? new Error("the client cancelled the request"));
    signal.addEventListener("abort", onAbort, { once: true });
    call.progress = progress;
    try {
      while (!call.outcome && !call.questions.some((question) => !question.sent)) {
        if (signal.aborted) throw McpError.cancelled("tools/call");
        await new Promise<void>((resolve) => (call.wake = resolve));
        if (!call.outcome) await this.gather();
      }
      if (signal.aborted) throw McpError.cancelled("tools/call");
    } finally {
      signal.removeEventListener("abort", onAbort);
      call.wake = () => {};
      call.answering = false;
      call.progress = undefined;
    }
    const { outcome } = call;
    if (outcome) {
      this.calls.delete(call.state);
      if ("error" in outcome) throw outcome.error;
      return outcome.value;
    }
    const inputRequests: Record<string, unknown> = {};
    for (const question of call.questions) {
      question.sent = true;
      // A key may be the upstream's: `__proto__` must stay a key, not become the object's prototype.
      Object.defineProperty(inputRequests, question.key, { value: { method: question.method, params: question.params }, enumerable: true, writable: true, configurable: true });
    }
    // Each round names the call anew: the retry of an earlier round (replayed, or sent twice) is refused as unknown.
    this.calls.delete(call.state);
    call.state = randomUUID();
    this.calls.set(call.state, call);
    call.expiry = this.clock.setTimeout(() => this.giveUp(call, new Error("the client did not answer in time")), this.waitMs);
    call.expiry.unref();
    return { resultType: ResultType.inputRequired, inputRequests, requestState: call.state };
  }

  /**
   * Lets what a server asks together go out in one round: a 2026-07-28 upstream's round (answered
   * side by side) comes within this turn of the event loop; a handshake upstream's requests, sent at
   * once, are read apart (a fraction of a millisecond) and come within `gatherMs`.
   */
  private gather(): Promise<void> {
    if (this.gatherMs <= 0) return new Promise<void>((resolve) => setImmediate(resolve));
    return new Promise<void>((resolve) => this.clock.setTimeout(resolve, this.gatherMs).unref());
  }

  /**
   * The key a question goes to the client under: the upstream's own (so a single upstream's keys
   * reach the client as it wrote them), unless the call has a question waiting under that key
   * already (two upstream rounds, or a clash with a key of ours), then one of ours that is free.
   */
  private keyFor(call: RoundCall, upstreamKey: string | undefined, next: () => string): string {
    const taken = (key: string) => call.questions.some((question) => question.key === key);
    if (upstreamKey !== undefined && upstreamKey.length > 0 && upstreamKey.length <= MAX_KEY_CHARS && !taken(upstreamKey)) return upstreamKey;
    let key = next();
    while (taken(key)) key = next();
    return key;
  }

  private ended(call: RoundCall, outcome: RoundCall["outcome"]): void {
    // A call that ended between rounds (its server gave the question up) keeps its result for the
    // client's retry to collect, until the expiry forgets it. The first outcome stands (see missingCapability).
    call.outcome ??= outcome;
    call.wake();
  }

  /**
   * The upstream needs what the client did not declare and has no graceful answer without (sampling):
   * the client's request fails with MissingRequiredClientCapability naming it, as the revision asks
   * of a server, and the upstream call, which cannot finish as asked, is given up. Never for a
   * request only guessed to be this call's: that one is refused, and the call goes on.
   */
  private missingCapability(call: RoundCall, capability: string, why: string): void {
    const message = `${why}, which the server behind this request needs; declare ${capability} to use it`;
    this.ended(call, { error: new McpError(ModernErrorCode.MissingRequiredClientCapability, message, { data: { requiredCapabilities: { [capability]: {} } } }) });
    const reason = new Error(message);
    for (const question of call.questions.splice(0)) question.fail(reason);
    call.controller.abort(reason);
  }

  private giveUp(call: RoundCall, reason: Error): void {
    this.calls.delete(call.state);
    if (call.expiry) this.clock.clearTimeout(call.expiry);
    for (const question of call.questions) question.fail(reason);
    call.controller.abort(reason);
    call.wake();
  }
}
