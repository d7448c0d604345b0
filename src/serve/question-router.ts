import type { ElicitationHandler, ElicitationRequest, ElicitResult, ServerPool } from "../mcp/index.ts";

/** Who asks a question on behalf of one upstream call: the client that made the call, in its own era's way. */
export interface CallQuestions {
  /** The configured server the call went to. */
  server: string;
  /** The signal the call was sent upstream with (a modern upstream asks under it). */
  signal: AbortSignal;
  ask: ElicitationHandler;
}

const DECLINE: ElicitResult = { action: "decline" };

/**
 * The servers' questions (elicitation), routed to the client call they belong to. The pool has one
 * answerer for every server's questions, but `mcp serve` may have many clients of both eras at
 * once, each call answered its own way (an `elicitation/create` to a handshake client, an
 * `input_required` result to a 2026-07-28 one). A question belongs to the upstream call sent with
 * the signal it comes with (a 2026-07-28 upstream asks under its call's signal), or to the call it
 * came during (a handshake upstream over HTTP asks on that call's response stream). Over stdio a
 * handshake upstream's `elicitation/create` names no call, so it goes to the oldest call running on
 * the server that asks and not already waiting for an answer of its own (a tool asks one question at
 * a time; a 2026-07-28 client that never came back for its `input_required` round would otherwise
 * take every later question of that server), else the oldest. A question outside any call goes to
 * the answerer for those (a stdio client), else it is declined.
 */
export class QuestionRouter {
  private readonly calls = new Set<CallQuestions>();
  /** The calls with a question put to their client and not answered yet, and how many. */
  private readonly waiting = new Map<CallQuestions, number>();
  private outside: ElicitationHandler | undefined;

  /** Takes the pool's questions over; returns what gives them back. Throws while another front end holds them. */
  attach(pool: ServerPool): () => void {
    return pool.answerQuestionsWith(this.answer);
  }

  /** Runs `work` (one upstream call) with its questions put through `questions`. */
  async during<T>(questions: CallQuestions, work: () => Promise<T>): Promise<T> {
    this.calls.add(questions);
    try {
      return await work();
    } finally {
      this.calls.delete(questions);
    }
  }

  /** Who answers questions that come outside any call; returns what gives them back. */
  answerOutsideCallsWith(handler: ElicitationHandler): () => void {
    this.outside = handler;
    return () => {
      if (this.outside === handler) this.outside = undefined;
    };
  }

  readonly answer: ElicitationHandler = (request: ElicitationRequest, signal?: AbortSignal, during?: AbortSignal) => {
    const calls = [...this.calls];
    const onServer = calls.filter((call) => call.server === request.server);
    const owner =
      calls.find((call) => call.signal === signal || (during !== undefined && call.signal === during)) ??
      onServer.find((call) => !this.waiting.has(call)) ??
      onServer[0];
    if (owner) return this.asking(owner, request, signal);
    return this.outside ? this.outside(request, signal) : Promise.resolve(DECLINE);
  };

  private async asking(owner: CallQuestions, request: ElicitationRequest, signal?: AbortSignal): Promise<ElicitResult> {
    this.waiting.set(owner, (this.waiting.get(owner) ?? 0) + 1);
    try {
      return await owner.ask(request, signal);
    } finally {
      const left = (this.waiting.get(owner) ?? 1) - 1;
      if (left > 0) this.waiting.set(owner, left);
      else this.waiting.delete(owner);
    }
  }
}
