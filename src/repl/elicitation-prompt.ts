import { answerField, type ElicitationHandler, type ElicitationRequest, type ElicitContent, type ElicitResult, type ElicitValue, type FormElicitationRequest, type FormField } from "../mcp/index.ts";
import { openInBrowser } from "../system/open-in-browser.ts";
import { clean, messageLines, noAnswer, type PromptIo } from "./elicitation-io.ts";
import { askLinkConsent } from "./link-consent.ts";
import type { Ask } from "./permission-prompt.ts";
import { plainStyle, type Style } from "./tool-call-line.ts";

export interface ElicitationPromptOptions {
  /** Reads one answer: null when input ended (Ctrl-D) or the signal aborted. */
  ask: Ask;
  /** Calls the listener on Esc or Ctrl-C until the returned function is called (see cancelKeys). */
  onCancelKey?: (listener: () => void) => () => void;
  /** Called before anything is shown (ends a line of streamed text). */
  before?: () => void;
  print?: (line: string) => void;
  /** Opens a link in the browser; false when no browser could be started. */
  openUrl?: (url: string) => Promise<boolean>;
  style?: Style;
}

/**
 * The REPL's answer to a server's question. A form shows `<server> asks: <message>`, asks each field
 * with its default taken on Enter, asks again after an invalid answer with the reason, shows the
 * answers and asks `Send? [y]es / [e]dit / [n]o (decline) / Esc (cancel)`. A link is shown whole
 * and opened only after a yes. Esc or Ctrl-C anywhere cancels; Ctrl-D declines. Two servers asking
 * at once are asked one after the other, never with their questions interleaved.
 */
export function interactiveElicitation(options: ElicitationPromptOptions): ElicitationHandler {
  let previous: Promise<unknown> = Promise.resolve();
  return (request, signal) => {
    const turn = previous.then(() => askOnce(request, options, signal));
    previous = turn.catch(() => undefined);
    // A failure at the terminal (output closed) is no answer the user gave: cancel.
    return turn.catch((): ElicitResult => ({ action: "cancel" }));
  };
}

async function askOnce(request: ElicitationRequest, options: ElicitationPromptOptions, signal?: AbortSignal): Promise<ElicitResult> {
  if (signal?.aborted) return { action: "cancel" };
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const releaseKeys = options.onCancelKey?.(onAbort);
  const io: PromptIo = {
    ask: (question) => options.ask(question, stop.signal),
    cancelled: () => stop.signal.aborted,
    print: options.print ?? ((line) => process.stdout.write(`${line}\n`)),
    style: options.style ?? plainStyle,
  };
  try {
    options.before?.();
    const result = request.mode === "url" ? await askLinkConsent(request, io, options.openUrl ?? openInBrowser) : await askForm(request, io);
    io.print(io.style.dim(OUTCOMES[result.action].replace("<server>", clean(request.server))));
    return result;
  } finally {
    releaseKeys?.();
    signal?.removeEventListener("abort", onAbort);
  }
}

const OUTCOMES = { accept: "(answered <server>)", decline: "(declined: <server> was told no)", cancel: "(cancelled)" } as const;

async function askForm(request: FormElicitationRequest, io: PromptIo): Promise<ElicitResult> {
  const { fields } = request.form;
  for (const line of messageLines(`${clean(request.server)} asks: `, request.message)) io.print(line);
  io.print(io.style.dim("(Enter takes the value in [brackets]; Esc cancels; Ctrl-D declines)"));
  const answers = new Map<string, ElicitValue | undefined>();
  for (;;) {
    for (const field of fields) {
      // On a second pass (edit) Enter keeps the answer given before.
      const before = answers.get(field.name);
      const value = await askField(before === undefined ? field : ({ ...field, default: before } as FormField), io);
      if (value === null) return noAnswer(io);
      answers.set(field.name, value.value);
    }
    const content: ElicitContent = Object.fromEntries([...answers].filter((entry): entry is [string, ElicitValue] => entry[1] !== undefined));
    io.print(`You are about to send to ${clean(request.server)}:`);
    for (const field of fields) io.print(`  ${clean(field.label)}: ${showValue(field, answers.get(field.name), io.style)}`);
    const choice = await askSend(io, fields.length > 0);
    if (choice === "send") return { action: "accept", content };
    if (choice !== "edit") return choice;
  }
}

async function askSend(io: PromptIo, editable: boolean): Promise<ElicitResult | "send" | "edit"> {
  const question = `Send? [y]es${editable ? " / [e]dit" : ""} / [n]o (decline) / Esc (cancel) `;
  for (;;) {
    const answer = await io.ask(question);
    if (answer === null) return noAnswer(io);
    switch (answer.trim().toLowerCase()) {
      case "y":
      case "yes":
        return "send";
      case "e":
      case "edit":
        if (editable) return "edit";
        break;
      case "n":
      case "no":
        return { action: "decline" };
      // Anything else, an empty line included, asks again: a stray Enter should not send.
    }
  }
}

/** Asks one field until it gets a valid answer; null when there was none (cancel or decline). */
async function askField(field: FormField, io: PromptIo): Promise<{ value: ElicitValue | undefined } | null> {
  const description = field.description ? `  ${clean(field.description)}` : undefined;
  if (description) io.print(io.style.dim(description));
  if (field.kind === "choice" || field.kind === "choices") field.options.forEach((option, i) => io.print(`  ${i + 1}. ${clean(option.label)}`));
  const shownDefault = field.default === undefined ? "" : ` [${showValue(field, field.default, undefined)}]`;
  const question = `${io.style.bold(clean(field.label))}${field.required ? "*" : ""} (${hint(field)})${shownDefault}: `;
  for (;;) {
    const typed = await io.ask(question);
    if (typed === null) return null;
    const answer = answerField(field, typed);
    if (answer.ok) return { value: answer.value };
    io.print(io.style.red(`  ✗ ${answer.reason}`));
  }
}

/** What kind of answer a field takes, in a few words. */
function hint(field: FormField): string {
  const range = (low: number | undefined, high: number | undefined, unit = "") =>
    low !== undefined && high !== undefined ? `, ${low} to ${high}${unit}` : low !== undefined ? `, at least ${low}${unit}` : high !== undefined ? `, at most ${high}${unit}` : "";
  switch (field.kind) {
    case "text":
      return `text${field.format ? `, ${field.format}` : ""}${range(field.minLength, field.maxLength, " characters")}`;
    case "number":
      return `${field.integer ? "whole number" : "number"}${range(field.minimum, field.maximum)}`;
    case "boolean":
      return "y/n";
    case "choice":
      return `1-${field.options.length}`;
    case "choices":
      return `numbers 1-${field.options.length} like 1,3${range(field.minItems, field.maxItems, " of them")}`;
  }
}

/** A value as the user reads it: options by their titles, text quoted so that blanks show. */
function showValue(field: FormField, value: ElicitValue | undefined, style: Style | undefined): string {
  if (value === undefined) return style ? style.dim("(left out)") : "";
  const label = (item: string) => clean(("options" in field ? field.options.find((option) => option.value === item)?.label : undefined) ?? item);
  if (Array.isArray(value)) return value.length === 0 ? "(none)" : value.map(label).join(", ");
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return String(value);
  return field.kind === "choice" ? label(value) : style ? JSON.stringify(clean(value)) : clean(value);
}

/**
 * Esc and Ctrl-C as they arrive at a terminal: TerminalInput emits each as a `keypress` event on
 * `input`, whether or not a line is being read, and a line answer never shows them. Without a terminal there are no keys,
 * and this does nothing.
 */
export function cancelKeys(input: NodeJS.ReadableStream): (listener: () => void) => () => void {
  return (listener) => {
    const onKey = (_text: unknown, key?: { name?: string; ctrl?: boolean }) => {
      if (key?.name === "escape" || (key?.ctrl && key.name === "c")) listener();
    };
    input.on("keypress", onKey);
    return () => input.off("keypress", onKey);
  };
}
