import { answerWithDefaults, type ElicitationHandler, type ElicitationRequest, requiredWithoutDefault } from "../mcp/index.ts";
import { cutText } from "../system/cut-text.ts";
import { sanitizeForTerminal } from "./terminal-text.ts";

const MAX_MESSAGE_CHARS = 200;
const MAX_FIELDS_NAMED = 8;
const MAX_NAME_CHARS = 40;

/**
 * The answer to a server's question when nobody can answer it (`mcp call`, `-p`): decline, and say
 * on stderr what was asked, so the user knows to run it in the REPL. Declining (not cancelling)
 * tells the server the answer is no, at once, instead of leaving the call to time out.
 */
export function declinedElicitation(
  writeLine: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  why = "run it in the REPL to answer",
): ElicitationHandler {
  return async (request) => {
    writeLine(declineNote(request, why));
    return { action: "decline" };
  };
}

/**
 * `--elicitation accept-defaults` (`mcp call`): a form is answered with its defaults; one that
 * cannot be (a required field without a default, a link that needs a person's consent) is
 * declined, with a line on stderr that says so and why, never silently.
 */
export function defaultsOrDecline(writeLine: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): ElicitationHandler {
  return async (request) => {
    const answer = await answerWithDefaults(request);
    if (answer.action === "decline") writeLine(declineNote(request, `${whyNoDefaults(request)}; run it in the REPL to answer`));
    return answer;
  };
}

/** Why `answerWithDefaults` declined, in words: the fields are named (sanitized, bounded) as declineNote names them. */
function whyNoDefaults(request: ElicitationRequest): string {
  if (request.mode === "url") return "accept-defaults never opens a link: that needs your consent";
  const names = requiredWithoutDefault(request.form).map((field) => clean(field.name, MAX_NAME_CHARS));
  const more = names.length > MAX_FIELDS_NAMED ? `, and ${names.length - MAX_FIELDS_NAMED} more` : "";
  return `accept-defaults has no default for the required field${names.length === 1 ? "" : "s"} ${names.slice(0, MAX_FIELDS_NAMED).join(", ")}${more}`;
}

/**
 * `cat-code: <server> asked for input ("<message>", fields: a, b) — declined: run it in the REPL to
 * answer`: one line, sanitized, bounded. For a link only its origin is named: the rest of a URL
 * may carry a one-time code, and nobody consented to see it.
 */
export function declineNote(request: ElicitationRequest, why = "run it in the REPL to answer"): string {
  const message = JSON.stringify(clean(request.message, MAX_MESSAGE_CHARS));
  const server = clean(request.server, MAX_NAME_CHARS);
  if (request.mode === "url") {
    return `cat-code: ${server} asked you to open a link on ${clean(new URL(request.url).origin, 200)} (${message}) — declined: ${why}`;
  }
  const names = request.form.fields.map((field) => clean(field.name, MAX_NAME_CHARS));
  const more = names.length > MAX_FIELDS_NAMED ? `, and ${names.length - MAX_FIELDS_NAMED} more` : "";
  const fields = names.length === 0 ? "" : `, fields: ${names.slice(0, MAX_FIELDS_NAMED).join(", ")}${more}`;
  return `cat-code: ${server} asked for input (${message}${fields}) — declined: ${why}`;
}

function clean(text: string, max: number): string {
  return cutText(sanitizeForTerminal(text), max);
}
