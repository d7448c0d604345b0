import type { PlanAnswer } from "../agent/tools/exit-plan-mode-tool.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { Ask } from "./permission-prompt.ts";
import type { Style } from "./tool-call-line.ts";

/**
 * The user's side of exit_plan_mode: the plan shown whole (it is what the user approves), then
 * `[y]es / [a] yes, and accept edits / [n]o, keep planning` as single keys. No asks what should
 * change, and that is what the model reads; Esc or Ctrl-D is no answer (null), plan mode stays.
 */
export async function reviewPlan(plan: string, io: { ask: Ask; print: (line: string) => void; style: Style; signal?: AbortSignal; escape?: (listener: () => void) => () => void }): Promise<PlanAnswer | null> {
  io.print(io.style.bold("The model's plan:"));
  for (const line of plan.split("\n")) io.print(`  ${sanitizeForTerminal(line)}`);
  const pressed = new AbortController();
  const stop = io.escape?.(() => pressed.abort()) ?? (() => {});
  const signal = io.signal ? AbortSignal.any([io.signal, pressed.signal]) : pressed.signal;
  try {
    for (;;) {
      const answer = await io.ask("Accept this plan? [y]es / [a] yes, and accept edits / [n]o, keep planning ", signal, ["y", "a", "n"]);
      if (answer === null) return null;
      switch (answer.trim().toLowerCase()) {
        case "y":
        case "yes":
          return { accepted: true, mode: "default" };
        case "a":
          return { accepted: true, mode: "acceptEdits" };
        case "n":
        case "no": {
          const feedback = await io.ask("What should change? ", signal);
          return feedback === null ? null : { accepted: false, feedback };
        }
      }
    }
  } finally {
    stop();
  }
}
