import { expect, test } from "bun:test";
import { reviewPlan } from "../../../src/repl/plan-review.ts";
import { plainStyle } from "../../../src/repl/tool-call-line.ts";

function review(answers: (string | null)[]) {
  const printed: string[] = [];
  const asked: { question: string; keys?: readonly string[] }[] = [];
  const ask = async (question: string, _signal?: AbortSignal, keys?: readonly string[]) => (asked.push({ question, keys }), answers.shift() ?? null);
  return { printed, asked, run: (plan: string) => reviewPlan(plan, { ask, print: (line) => printed.push(line), style: plainStyle }) };
}

test("the plan is shown whole and sanitized; y accepts into default mode, a into accept edits", async () => {
  const yes = review(["y"]);
  expect(await yes.run("1. Edit a.ts\n2. \u001b[2JRun the tests")).toEqual({ accepted: true, mode: "default" });
  expect(yes.printed).toEqual(["The model's plan:", "  1. Edit a.ts", expect.stringMatching(/^ {2}2\. .*Run the tests$/)]);
  expect(yes.printed.join("")).not.toContain("\u001b");
  expect(yes.asked[0]).toEqual({ question: "Accept this plan? [y]es / [a] yes, and accept edits / [n]o, keep planning ", keys: ["y", "a", "n"] });
  expect(await review(["a"]).run("p")).toEqual({ accepted: true, mode: "acceptEdits" });
});

test("n keeps planning with what should change; no answer (Esc, Ctrl-D) is null; anything else asks again", async () => {
  const no = review(["maybe", "n", "also update the README"]);
  expect(await no.run("p")).toEqual({ accepted: false, feedback: "also update the README" });
  expect(no.asked.map((a) => a.question)).toEqual([
    "Accept this plan? [y]es / [a] yes, and accept edits / [n]o, keep planning ",
    "Accept this plan? [y]es / [a] yes, and accept edits / [n]o, keep planning ",
    "What should change? ",
  ]);
  expect(await review([null]).run("p")).toBeNull();
  expect(await review(["n", null]).run("p")).toBeNull();
});
