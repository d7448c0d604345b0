import { expect, test } from "bun:test";
import { parseElicitationRequest } from "../../../src/mcp/client/elicitation.ts";
import { interactiveElicitation } from "../../../src/repl/elicitation-prompt.ts";
import { waitFor } from "../../helpers/wait-for.ts";

/**
 * The prompt's logic without a terminal: `ask` is a person who answers when the test says so.
 * The keys themselves are tested at a real terminal (elicitation-prompt-terminal.test.ts).
 */
function person() {
  const questions: { question: string; answer: (line: string | null) => void; signal?: AbortSignal }[] = [];
  const lines: string[] = [];
  const ask = (question: string, signal?: AbortSignal) =>
    new Promise<string | null>((resolve) => {
      questions.push({ question, answer: resolve, signal });
      signal?.addEventListener("abort", () => resolve(null), { once: true });
    });
  return { questions, lines, ask, print: (line: string) => lines.push(line) };
}

const nameForm = (server: string) =>
  parseElicitationRequest(server, { message: `${server} needs a name`, requestedSchema: { type: "object", properties: { name: { type: "string" } } } });

test("two servers asking at once are asked one after the other, never interleaved", async () => {
  const user = person();
  const handler = interactiveElicitation({ ask: user.ask, print: user.print });
  const first = handler(nameForm("alpha"));
  const second = handler(nameForm("beta"));
  await waitFor(() => user.questions.length === 1, "the first question");
  expect(user.lines.some((line) => line.includes("beta"))).toBe(false);
  user.questions[0]!.answer("Ada");
  await waitFor(() => user.questions.length === 2, "the Send? question");
  user.questions[1]!.answer("y");
  expect(await first).toEqual({ action: "accept", content: { name: "Ada" } });
  await waitFor(() => user.questions.length === 3, "beta's question");
  expect(user.lines).toContain("beta asks: beta needs a name");
  user.questions[2]!.answer(null);
  expect(await second).toEqual({ action: "decline" });
});

test("a call given up while its form is shown stops the form and cancels", async () => {
  const user = person();
  const handler = interactiveElicitation({ ask: user.ask, print: user.print });
  const call = new AbortController();
  const answer = handler(nameForm("alpha"), call.signal);
  await waitFor(() => user.questions.length === 1, "the question");
  call.abort();
  expect(await answer).toEqual({ action: "cancel" });
  expect(user.lines.at(-1)).toBe("(cancelled)");
  // Already given up: nothing is asked at all.
  expect(await handler(nameForm("beta"), AbortSignal.abort())).toEqual({ action: "cancel" });
  expect(user.questions).toHaveLength(1);
});

test("Esc or Ctrl-C (the cancel key) cancels; the key listener is released afterwards", async () => {
  const user = person();
  let listener: (() => void) | undefined;
  const handler = interactiveElicitation({
    ask: user.ask,
    print: user.print,
    onCancelKey: (onKey) => {
      listener = onKey;
      return () => (listener = undefined);
    },
  });
  const answer = handler(nameForm("alpha"));
  await waitFor(() => user.questions.length === 1, "the question");
  listener!();
  expect(await answer).toEqual({ action: "cancel" });
  expect(listener).toBeUndefined();
});

test("a terminal that fails mid-form is a cancel, and the next question is still asked", async () => {
  const user = person();
  let broken = true;
  const handler = interactiveElicitation({
    ask: user.ask,
    print: (line) => {
      if (broken) throw new Error("EPIPE");
      user.print(line);
    },
  });
  expect(await handler(nameForm("alpha"))).toEqual({ action: "cancel" });
  broken = false;
  const next = handler(nameForm("beta"));
  await waitFor(() => user.questions.length === 1, "beta's question");
  user.questions[0]!.answer(null);
  expect(await next).toEqual({ action: "decline" });
});

test("a stray Enter at Send? or at a link's question decides nothing", async () => {
  const user = person();
  const opened: string[] = [];
  const handler = interactiveElicitation({ ask: user.ask, print: user.print, openUrl: async (url) => (opened.push(url), false) });
  const link = handler(parseElicitationRequest("pay", { mode: "url", message: "Pay", url: "https://pay.example/x" }));
  await waitFor(() => user.questions.length === 1, "the link question");
  user.questions[0]!.answer("");
  await waitFor(() => user.questions.length === 2, "the link question again");
  expect(opened).toEqual([]);
  user.questions[1]!.answer("y");
  // No browser could start: the user agreed and has the link on screen, so it is still an accept.
  expect(await link).toEqual({ action: "accept" });
  expect(opened).toEqual(["https://pay.example/x"]);
  expect(user.lines).toContain("  No browser could be started: open the link above yourself.");
});

test("a plain-http link is flagged as not encrypted before the question", async () => {
  const user = person();
  const handler = interactiveElicitation({ ask: user.ask, print: user.print });
  const link = handler(parseElicitationRequest("pay", { mode: "url", message: "Pay", url: "http://pay.example/x" }));
  await waitFor(() => user.questions.length === 1, "the link question");
  expect(user.lines).toContain("  It goes to pay.example over plain http (not encrypted).");
  user.questions[0]!.answer("no");
  expect(await link).toEqual({ action: "decline" });
});
