import * as v from "valibot";
import { cutText } from "../../system/cut-text.ts";
import { ProgressToken } from "../stateless-protocol.ts";

/** One `notifications/progress` for a call, as the caller sees it. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}


/** A server's message is one line on a screen, not a document. */
export const MAX_PROGRESS_MESSAGE_CHARS = 200;

/** `1e999` parses to Infinity: a progress must be a number a screen can show. */
const FiniteNumber = v.pipe(v.number(), v.finite());

const ProgressParams = v.object({
  progressToken: ProgressToken,
  progress: FiniteNumber,
  total: v.optional(FiniteNumber),
  message: v.optional(v.string()),
});

/** What hears a call's updates: an object, so a call's own bookkeeping can be it (no closure per call). */
export interface ProgressListener {
  progressed(update: ProgressUpdate): void;
}

interface TrackedCall {
  listener: ProgressListener;
  last: number | undefined;
}

/**
 * Routes `notifications/progress` to the call that asked for it. Each call gets a token of its own
 * (sent as `_meta.progressToken`) and hears only updates carrying it, while it runs. Everything else
 * is dropped: a token no call holds (a late update, a made-up one), malformed params, and a progress
 * that does not increase, since the spec says it MUST (a server going backwards would make the
 * line on the screen jump). Messages are cut to a bounded length here, where they enter.
 */
export class ProgressTracker {
  private readonly calls = new Map<ProgressToken, TrackedCall>();
  private nextToken = 1;

  /** `shown` cuts a message to its bound (the client's also masks: a server may quote a credential it received). */
  constructor(private readonly shown: (text: string, max: number) => string = cutText) {}

  /** A fresh token whose updates go to `listener` until `release` is called (when the call settles). */
  start(listener: (update: ProgressUpdate) => void): { token: ProgressToken; release: () => void } {
    const token = this.track({ progressed: listener });
    return { token, release: () => this.untrack(token) };
  }

  /** `start` for the hot path: a fresh token for `listener`, held until `untrack`. */
  track(listener: ProgressListener): ProgressToken {
    const token = this.nextToken++;
    this.calls.set(token, { listener, last: undefined });
    return token;
  }

  untrack(token: ProgressToken): void {
    this.calls.delete(token);
  }

  /** How many calls hold a token: none once every call has settled. */
  get size(): number {
    return this.calls.size;
  }

  /**
   * Hands a notification's params to the call holding its token. True when a call took it, so the
   * client can reset that call's timeout; false when it was dropped.
   */
  handle(params: unknown): boolean {
    const parsed = v.safeParse(ProgressParams, params);
    if (!parsed.success) return false;
    const { progressToken, progress, total, message } = parsed.output;
    const call = this.calls.get(progressToken);
    if (!call || (call.last !== undefined && progress <= call.last)) return false;
    call.last = progress;
    const update: ProgressUpdate = { progress };
    if (total !== undefined) update.total = total;
    if (message !== undefined) update.message = this.shown(message, MAX_PROGRESS_MESSAGE_CHARS);
    call.listener.progressed(update);
    return true;
  }
}

