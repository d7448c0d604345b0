import { describe, expect, test } from "bun:test";
import type { ElicitationHandler, ElicitationRequest } from "../../../src/mcp/index.ts";
import { QuestionRouter } from "../../../src/serve/question-router.ts";
import { MAX_OPEN_QUESTIONS, StreamQuestions } from "../../../src/serve/stream-questions.ts";

const question = (server: string): ElicitationRequest => ({
  server,
  mode: "form",
  message: "Which one?",
  requestedSchema: { type: "object", properties: {} },
  form: { fields: [] } as never,
});
const answering = (label: string, asked: string[]): ElicitationHandler => async () => {
  asked.push(label);
  return { action: "decline" };
};

describe("QuestionRouter", () => {
  test("a question goes to the call sent with its signal, else to the oldest call on its server, else outside, else declined", async () => {
    const router = new QuestionRouter();
    const asked: string[] = [];
    const [first, second] = [new AbortController().signal, new AbortController().signal];
    let finish = () => {};
    const running = new Promise<void>((resolve) => (finish = resolve));
    const calls = Promise.all([
      router.during({ server: "a", signal: first, ask: answering("first call", asked) }, () => running),
      router.during({ server: "a", signal: second, ask: answering("second call", asked) }, () => running),
    ]);
    await router.answer(question("a"), second);
    await router.answer(question("a"), undefined);
    expect(await router.answer(question("b"), undefined)).toEqual({ action: "decline" });
    const release = router.answerOutsideCallsWith(answering("outside", asked));
    await router.answer(question("b"), undefined);
    release();
    finish();
    await calls;
    expect(await router.answer(question("a"), first)).toEqual({ action: "decline" });
    expect(asked).toEqual(["second call", "first call", "outside"]);
  });

  test("a question that names no call passes over a call still waiting for its own answer (a round its client never came back for)", async () => {
    const router = new QuestionRouter();
    const asked: string[] = [];
    let finish = () => {};
    const running = new Promise<void>((resolve) => (finish = resolve));
    const never: ElicitationHandler = () => new Promise(() => {});
    const abandoned = router.during({ server: "a", signal: new AbortController().signal, ask: never }, () => running);
    void router.answer(question("a"), undefined);
    const current = router.during({ server: "a", signal: new AbortController().signal, ask: answering("current call", asked) }, () => running);
    await router.answer(question("a"), undefined);
    expect(asked).toEqual(["current call"]);
    finish();
    await Promise.all([abandoned, current]);
  });
});

describe("StreamQuestions", () => {
  const form = () => ({ elicitation: { form: {} } });

  test("a question is sent as elicitation/create with an id of ours; the client's POSTed response answers it", async () => {
    const questions = new StreamQuestions(form);
    const sent: Array<Record<string, unknown>> = [];
    const answer = questions.ask((message) => sent.push(message as Record<string, unknown>), question("a"));
    expect(sent[0]).toMatchObject({ jsonrpc: "2.0", id: "cat-code-q-1", method: "elicitation/create", params: { message: "a: Which one?" } });
    expect(questions.answered({ jsonrpc: "2.0", id: 1, result: { action: "accept" } })).toBe(false);
    expect(questions.answered({ jsonrpc: "2.0", id: "cat-code-q-1", result: { action: "accept", content: { x: "y" } } })).toBe(true);
    expect(await answer).toEqual({ action: "accept", content: { x: "y" } });
  });

  test("an error response is a cancel; a client that cannot answer is never asked", async () => {
    const questions = new StreamQuestions(form);
    const answer = questions.ask(() => {}, question("a"));
    questions.answered({ jsonrpc: "2.0", id: "cat-code-q-1", error: { code: -32601, message: "no" } });
    expect(await answer).toEqual({ action: "cancel" });
    const sent: object[] = [];
    expect(await new StreamQuestions(() => ({})).ask((message) => sent.push(message), question("a"))).toEqual({ action: "decline" });
    expect(sent).toEqual([]);
  });

  test(`at most ${MAX_OPEN_QUESTIONS} open at once; ending the session cancels them`, async () => {
    const questions = new StreamQuestions(form);
    const open = Array.from({ length: MAX_OPEN_QUESTIONS }, () => questions.ask(() => {}, question("a")));
    expect(await questions.ask(() => {}, question("a"))).toEqual({ action: "decline" });
    questions.cancelAll();
    expect(await Promise.all(open)).toEqual(open.map(() => ({ action: "cancel" })));
  });
});
