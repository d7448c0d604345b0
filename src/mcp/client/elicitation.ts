/**
 * Elicitation: a server asks the user for input, through `elicitation/create` (a server request in
 * the handshake revisions) or an `input_required` result (2026-07-28). Both arrive here as one
 * ElicitationRequest; a front end answers it with an ElicitationHandler (a form in the REPL, a
 * decline with a note for `mcp call` and `-p`). This layer checks and bounds the request; showing
 * it is the front end's work.
 */
import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import { cutText } from "../../system/cut-text.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { defaultContent } from "./elicitation-answers.ts";
import { type ElicitContent, type ElicitationForm, type FormField, parseElicitationForm } from "./elicitation-form.ts";

/** What we declare: both modes (an empty object would mean form only). */
export const ELICITATION_CAPABILITY = { form: {}, url: {} } as const;

/** A server's message is shown whole up to this length, then cut. */
export const MAX_MESSAGE_CHARS = 4_000;
/** A link longer than this is refused: no real page needs it, and it could hide its end. */
export const MAX_URL_CHARS = 4_096;

interface RequestBase {
  /** The configured name of the server that asks: the user must see who asks. */
  server: string;
  /** Why the server asks, as it said it (cut to MAX_MESSAGE_CHARS; not sanitized yet). */
  message: string;
  /**
   * The server's own key for the question, when it asked as an input request (2026-07-28): a
   * gateway (`mcp serve`) passes the question on under the same key. A server request has none.
   */
  key?: string;
}

export interface FormElicitationRequest extends RequestBase {
  mode: "form";
  /** The schema as the server sent it. */
  requestedSchema: Record<string, unknown>;
  /** The same schema checked and turned into fields (see elicitation-form.ts). */
  form: ElicitationForm;
}

export interface UrlElicitationRequest extends RequestBase {
  mode: "url";
  /** The link as the server sent it: shown whole before the user agrees to open it. */
  url: string;
  /** 2025-11-25 only: the server's id for this elicitation (opaque to us). */
  elicitationId?: string;
}

export type ElicitationRequest = FormElicitationRequest | UrlElicitationRequest;

/** The spec's ElicitResult: `content` only with accept, and only in form mode. */
export type ElicitResult = { action: "accept"; content?: ElicitContent } | { action: "decline" } | { action: "cancel" };

/**
 * How a front end answers. It never rejects: whatever goes wrong at the terminal is a cancel. When
 * `signal` aborts (the call that led to the question was given up), it stops asking and cancels.
 * `call`: the signal of the call a handshake server's request came during, when the transport could
 * tell (HTTP: it came on that call's response stream); a front end with many callers routes by it.
 */
export type ElicitationHandler = (request: ElicitationRequest, signal?: AbortSignal, call?: AbortSignal) => Promise<ElicitResult>;

/**
 * Checks the params of `elicitation/create` (a request, or an entry of `inputRequests`) from
 * `server`. A request that breaks the spec (no message, a schema that is not a flat object of
 * primitives, a url that is not a URL) throws McpError InvalidParams, as the official SDK answers:
 * the user never saw it, so it is not theirs to decline; the caller answers it with that error (a
 * server request) or fails the original request (an input request, which has no error answer).
 */
export function parseElicitationRequest(server: string, params: unknown): ElicitationRequest {
  const invalid = (reason: string) => new McpError(ErrorCode.InvalidParams, `invalid elicitation request from '${server}': ${reason}`);
  if (!isPlainObject(params)) throw invalid("params must be an object");
  const { mode = "form", message } = params;
  if (typeof message !== "string") throw invalid("message must be a string");
  const shownMessage = cutText(message, MAX_MESSAGE_CHARS);
  if (mode === "form") {
    const { requestedSchema } = params;
    const form = parseElicitationForm(requestedSchema);
    if (!form.ok) throw invalid(form.reason);
    return { server, mode, message: shownMessage, requestedSchema: requestedSchema as Record<string, unknown>, form: form.form };
  }
  if (mode === "url") {
    const { url, elicitationId } = params;
    if (typeof url !== "string" || !URL.canParse(url)) throw invalid("url must be a URL");
    if (url.length > MAX_URL_CHARS) throw invalid(`url is ${url.length} characters long (at most ${MAX_URL_CHARS})`);
    if (elicitationId !== undefined && typeof elicitationId !== "string") throw invalid("elicitationId must be a string");
    return { server, mode, message: shownMessage, url, ...(elicitationId === undefined ? {} : { elicitationId }) };
  }
  throw invalid(`unknown mode ${JSON.stringify(String(mode)).slice(0, 40)} (form or url)`);
}

/**
 * A handler for runs with nobody to ask that must still say yes (the conformance suite's SEP-1034
 * scenario): a form is accepted with its defaults, what a user pressing Enter throughout would
 * send. A form with a required field that has no default cannot be sent that way, and a link
 * needs a person's consent: both are declined.
 */
export const answerWithDefaults: ElicitationHandler = async (request) => {
  if (request.mode !== "form" || requiredWithoutDefault(request.form).length > 0) return { action: "decline" };
  return { action: "accept", content: defaultContent(request.form) };
};

/** The required fields of a form that have no default: what keeps `answerWithDefaults` from sending it. */
export function requiredWithoutDefault(form: ElicitationForm): FormField[] {
  return form.fields.filter((field) => field.required && field.default === undefined);
}
