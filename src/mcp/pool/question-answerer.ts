import type { ElicitationHandler } from "../client/elicitation.ts";
import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import type { RequestRelay } from "../client/request-relay.ts";

/**
 * Who answers the servers' questions (elicitation), and in a gateway's pool who relays their
 * sampling and roots. A question has one answer, so unlike an event it has one answerer at a time:
 * the pool's default (ServerPoolOptions.elicitation, e.g. decline; no relay), until a front end
 * takes the questions over with `answerWith` and gives them back with what it returns. A second
 * front end that tries while one holds them is refused with an error, rather than silently taking
 * the first one's place (whoever assigned last used to win): that is a bug to see at once, not a
 * question that goes to the wrong terminal.
 */
export class QuestionAnswerer {
  /** Boxed, so a release called twice never gives back a later holder's turn (even the same function's). */
  private current: { handler: ElicitationHandler; relay?: RequestRelay } | undefined;

  constructor(private readonly fallback: ElicitationHandler | undefined) {}

  /** Takes the questions over; returns what gives them back. Throws while another answerer holds them. */
  answerWith(handler: ElicitationHandler, relay?: RequestRelay): () => void {
    if (this.current) throw new Error("the servers' questions already have an answerer; release it first");
    const held = { handler, ...(relay ? { relay } : {}) };
    this.current = held;
    return () => {
      if (this.current === held) this.current = undefined;
    };
  }

  /** Asks whoever answers now (bound late: the REPL takes over after the pool exists); nobody: declined. */
  readonly answer: ElicitationHandler = (request, signal, call) => {
    const answerer = this.current?.handler ?? this.fallback;
    return answerer ? answerer(request, signal, call) : Promise.resolve({ action: "decline" });
  };

  /** Relays through whoever holds the questions now; nobody: sampling is refused, roots are cat-code's own. */
  readonly relay: RequestRelay = {
    sampling: (request, signal, call) => {
      const relay = this.current?.relay;
      if (!relay) return Promise.reject(new McpError(ErrorCode.InvalidRequest, "no client is connected to cat-code to pass the sampling request to"));
      return relay.sampling(request, signal, call);
    },
    roots: async (request, signal, call) => this.current?.relay?.roots(request, signal, call),
  };
}
