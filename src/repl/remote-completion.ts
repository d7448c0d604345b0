import { log } from "../log.ts";
import type { McpClient } from "../mcp/index.ts";
import type { CompletionReference } from "../mcp/protocol.ts";
import { systemClock, type Clock } from "../system/clock.ts";

/** How long a Tab waits for a server: longer, and the key would feel stuck. */
export const COMPLETION_WAIT_MS = 1500;
/** How long the request itself may take; a later Tab on the same word waits for it again. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Answers kept for the session, oldest dropped first: a long session types many words. */
const MAX_CACHED = 500;

export interface RemoteCompletionsOptions {
  clock?: Clock;
  waitMs?: number;
}

type Completer = Pick<McpClient, "offers" | "complete">;

/**
 * What Tab asks of servers, bounded in time: `completion/complete` for a prompt's argument or a
 * template's variable, and the lists (prompts, resources) that completing needs. A Tab waits at
 * most `waitMs`; a request still running then goes on, and the next Tab on the same word waits for
 * that one instead of sending another (the debounce). Answers are kept for the session per server,
 * reference, argument, value and earlier arguments (the context changes the answer: a department's
 * members). A failure or a timeout completes nothing and leaves a debug line.
 */
export class RemoteCompletions {
  private readonly clock: Clock;
  private readonly waitMs: number;
  private readonly answers = new Map<string, Promise<string[]>>();

  constructor(options: RemoteCompletionsOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.waitMs = options.waitMs ?? COMPLETION_WAIT_MS;
  }

  /** The values a server offers for `argument`; none when it does not offer completions. */
  values(
    server: string,
    client: Completer,
    ref: CompletionReference,
    argument: { name: string; value: string },
    context: Record<string, string> = {},
  ): Promise<string[]> {
    if (!client.offers("completions")) return Promise.resolve([]);
    const key = JSON.stringify([server, ref, argument.name, argument.value, context]);
    let answer = this.answers.get(key);
    if (!answer) {
      const options = { timeoutMs: REQUEST_TIMEOUT_MS, ...(Object.keys(context).length ? { context } : {}) };
      answer = client.complete(ref, argument, options).then((completion) => completion.values);
      this.remember(key, answer);
    }
    return this.within(answer, [], `completion of ${argument.name} from ${server}`);
  }

  /** Resolves what `work` resolves, or `fallback` when it fails or is not done within the wait. */
  within<T>(work: Promise<T>, fallback: T, what: string): Promise<T> {
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(() => {
        log.debug(`tab: ${what} took more than ${this.waitMs} ms; completing nothing`);
        resolve(fallback);
      }, this.waitMs);
      work.then(
        (value) => {
          this.clock.clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          this.clock.clearTimeout(timer);
          log.debug(`tab: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
          resolve(fallback);
        },
      );
    });
  }

  private remember(key: string, answer: Promise<string[]>): void {
    this.answers.set(key, answer);
    // A failed answer is forgotten, so that the next Tab asks again.
    answer.catch(() => this.answers.get(key) === answer && this.answers.delete(key));
    if (this.answers.size > MAX_CACHED) this.answers.delete(this.answers.keys().next().value as string);
  }
}
