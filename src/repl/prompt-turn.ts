import { AgentError } from "../agent/agent-error.ts";
import type { RunOutcome } from "../agent/agent-loop.ts";
import { hookStopText } from "../agent/hooks/agent-hooks.ts";
import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { AgentRuntime } from "./agent-runtime.ts";
import type { AnswerDisplay } from "./answer-display.ts";
import { attachMentions } from "./prompt-attachments.ts";
import type { ResourceUpdates } from "./resource-updates.ts";
import type { RunningWork } from "./running-work.ts";
import type { ShellContext } from "./shell-command.ts";
import type { Style } from "./tool-call-line.ts";

/**
 * After the user said no, the turn has stopped; the prompt asks what to do instead, as Claude Code
 * does. What is typed there goes to the model right after the declined call's result (the
 * conversation joins them), with the prompt's editing, Tab, paste and @ mentions; nothing typed,
 * nothing sent. The question is the prompt itself, so Ctrl-D at the permission question is one key
 * back to the prompt.
 */
const INSTEAD_QUESTION = "What should cat-code do instead? (your next prompt goes to the model with the decline)";

/** What one turn runs with: the REPL's runtime, display and state, handed over by the controller. */
export interface PromptTurnContext {
  runtime: AgentRuntime;
  display: AnswerDisplay;
  work: RunningWork;
  /** Allow rules for this turn only (a custom command's allowed-tools); returns what removes them. */
  allowDuring: (rules: readonly string[]) => () => void;
  resourceUpdates: ResourceUpdates;
  shell: ShellContext;
  cwd: string;
  isTerminal: boolean;
  print: (text: string) => void;
  style: Style;
}

/**
 * A prompt (typed, or a server's prompt as blocks) sent to the model as one turn; `allow`: rules for
 * that turn only. Its @ mentions are attached, a checkpoint begins (dropped when no request was
 * sent), Esc and Ctrl-C stop it, and how it ended is said under it.
 */
export async function runPromptTurn(prompt: string | PromptBlock[], allow: readonly string[] | undefined, context: PromptTurnContext): Promise<void> {
  const { runtime, work, print, style } = context;
  const agent = runtime.agentOrMissingKey();
  if ("missing" in agent) {
    print(`error: ${agent.missing}`);
    return;
  }
  const turn = work.startTurn();
  const { abort } = turn;
  let declined = false;
  let stopEsc = () => {};
  const stopAllowing = allow?.length ? context.allowDuring(allow) : () => {};
  try {
    const renderer = (turn.renderer = await context.display.renderer());
    // Esc stops the turn as Ctrl-C does; at a question it is the question's (a form's cancel).
    stopEsc = work.cancelKeys()?.(() => work.onEscape()) ?? stopEsc;
    try {
      // What the user typed may @-mention resources; a server's prompt is sent as it came (its text
      // mentioning another server's resource must not fetch it).
      const blocks = typeof prompt === "string" ? await attachMentions(prompt, { runtime, signal: abort.signal, print, style, updates: context.resourceUpdates, cwd: context.cwd, shell: context.shell }) : prompt;
      if (blocks === undefined) return;
      // Piped input comes all at once: its first prompt must not lose the race with the servers.
      if (!context.isTerminal) await runtime.serversSettled(abort.signal);
      runtime.beginCheckpoint(prompt);
      const outcome = await agent.run(runtime.notedPrompt(blocks), { signal: abort.signal, observer: renderer });
      // No request: a hook blocked it, or it was given up before it was sent.
      if (outcome.requests === 0) runtime.abandonCheckpoint();
      renderer.endLine();
      reportOutcome(outcome, print, style);
      declined = outcome.status === "declined";
    } catch (error) {
      renderer.endLine();
      if (!(error instanceof AgentError)) throw error;
      runtime.abandonCheckpoint();
      print(style.red(`error: ${sanitizeForTerminal(error.message)}`));
      print(style.dim("(the prompt was not kept in the conversation: press Up to edit it and send it again)"));
    }
  } finally {
    stopEsc();
    stopAllowing();
    work.endTurn();
  }
  if (declined) print(INSTEAD_QUESTION);
}

function reportOutcome(outcome: RunOutcome, print: (text: string) => void, style: Style): void {
  if (outcome.status === "cancelled") print(style.dim("⎿ Cancelled."));
  else if (outcome.status === "blocked") print(style.red(`⎿ Prompt blocked by a UserPromptSubmit hook: ${sanitizeForTerminal(outcome.reason)}`));
  else if (outcome.status === "stopped") print(style.red(`⎿ ${hookStopText(outcome)}`));
  else if (outcome.status === "max_turns") print(style.dim(`⎿ Stopped after ${outcome.requests} model requests (--max-turns). Say "go on" to continue.`));
}
