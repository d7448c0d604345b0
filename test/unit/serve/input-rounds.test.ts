import { describe, expect, test } from "bun:test";
import type { ElicitationHandler, ElicitationRequest, ElicitResult } from "../../../src/mcp/index.ts";
import { clientAnswer, MAX_OPEN_QUESTIONS, NotAsked, type ClientAsk, type RelayedQuestion } from "../../../src/serve/client-questions.ts";
import { InputRounds } from "../../../src/serve/input-rounds.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";
import { waitFor } from "../../helpers/wait-for.ts";

const question = (message: string): ElicitationRequest => ({
  server: "s",
  mode: "form",
  message,
  requestedSchema: { type: "object", properties: {} },
  form: { fields: [] } as never,
});
const form = (question: RelayedQuestion) => {
  if (question.method !== "elicitation/create") throw new NotAsked(`no ${question.method}`);
  return { mode: "form", message: `s: ${question.request.message}` };
};
const askedNothing = () => {
  throw new NotAsked("the client cannot answer");
};
/** A question through `ask` as the QuestionRouter turns it into an answer: not asked is a decline, no answer a cancel. */
const questionsThrough =
  (ask: ClientAsk): ElicitationHandler =>
  (request, signal) =>
    ask({ method: "elicitation/create", request }, signal).then(clientAnswer, (error) => ({ action: error instanceof NotAsked ? "decline" : "cancel" }));

/** An upstream call that asks what `questions` say, one after the other, and answers with their actions. */
function asking(questions: string[], seen: { signal?: AbortSignal } = {}) {
  return async (signal: AbortSignal, client: ClientAsk) => {
    const ask = questionsThrough(client);
    seen.signal = signal;
    const answers: ElicitResult[] = [];
    for (const message of questions) answers.push(await ask(question(message), undefined));
    return { content: [{ type: "text", text: answers.map((answer) => answer.action).join(",") }] };
  };
}

describe("InputRounds", () => {
  test("a call without questions answers with its result at once, and nothing waits", async () => {
    const rounds = new InputRounds(new FakeClock());
    expect(await rounds.start(asking([]), new AbortController().signal, form)).toEqual({ content: [{ type: "text", text: "" }] });
    expect(rounds.waiting).toBe(0);
  });

  test("each question ends a round with input_required; the retry's answers reach the call, round after round, each round under a new requestState", async () => {
    const rounds = new InputRounds(new FakeClock());
    const first = (await rounds.start(asking(["one", "two"]), new AbortController().signal, form)) as Record<string, unknown>;
    expect(first).toMatchObject({ resultType: "input_required", inputRequests: { q1: { method: "elicitation/create", params: { message: "s: one" } } } });
    const state = first.requestState as string;
    const second = (await rounds.resume(state, { q1: { action: "accept", content: {} } }, new AbortController().signal)) as Record<string, unknown>;
    expect(second).toMatchObject({ resultType: "input_required", inputRequests: { q2: { params: { message: "s: two" } } } });
    expect(second.requestState).not.toBe(state);
    // The first round's state, replayed, names no call any more.
    expect(() => rounds.resume(state, {}, new AbortController().signal)).toThrow("unknown or expired requestState");
    // A malformed answer is a cancel, never passed on as it came.
    expect(await rounds.resume(second.requestState as string, { q2: { action: "accept", content: { x: { deep: 1 } } } }, new AbortController().signal)).toEqual({
      content: [{ type: "text", text: "accept,cancel" }],
    });
    expect(rounds.waiting).toBe(0);
  });

  test("a call that ends between rounds (its server gave the question up) keeps its result for the retry", async () => {
    const rounds = new InputRounds(new FakeClock());
    const serverGaveUp = new AbortController();
    let finished = false;
    const run = async (_signal: AbortSignal, client: ClientAsk) => {
      const answer = await questionsThrough(client)(question("one"), serverGaveUp.signal);
      finished = true;
      return { content: [{ type: "text", text: `ended: ${answer.action}` }] };
    };
    const first = (await rounds.start(run, new AbortController().signal, form)) as Record<string, unknown>;
    serverGaveUp.abort();
    await waitFor(() => finished, "the upstream call to end");
    expect(await rounds.resume(first.requestState as string, { q1: { action: "accept", content: {} } }, new AbortController().signal)).toEqual({
      content: [{ type: "text", text: "ended: cancel" }],
    });
    expect(rounds.waiting).toBe(0);
  });

  test("a requestState nobody waits with is refused with what to do", () => {
    const rounds = new InputRounds(new FakeClock());
    expect(() => rounds.resume("made-up", {}, new AbortController().signal)).toThrow(/unknown or expired requestState.*call the tool again without it/);
  });

  test("a question the client cannot answer is declined without a round", async () => {
    const rounds = new InputRounds(new FakeClock());
    expect(await rounds.start(asking(["one"]), new AbortController().signal, askedNothing)).toEqual({ content: [{ type: "text", text: "decline" }] });
  });

  test("a client that never comes back: the upstream call is given up after the wait, and the state forgotten", async () => {
    const clock = new FakeClock();
    const rounds = new InputRounds(clock, 1000);
    const seen: { signal?: AbortSignal } = {};
    const first = (await rounds.start(asking(["one"], seen), new AbortController().signal, form)) as Record<string, unknown>;
    clock.advance(999);
    expect(seen.signal?.aborted).toBe(false);
    clock.advance(1);
    expect(seen.signal?.aborted).toBe(true);
    await waitFor(() => rounds.waiting === 0, () => `calls still waiting: ${rounds.waiting}`);
    expect(() => rounds.resume(first.requestState as string, {}, new AbortController().signal)).toThrow(/unknown or expired/);
  });

  test("a client that cancels its round gives the upstream call up", async () => {
    const rounds = new InputRounds(new FakeClock());
    const seen: { signal?: AbortSignal } = {};
    const never = async (signal: AbortSignal) => {
      seen.signal = signal;
      return new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    };
    const client = new AbortController();
    const round = rounds.start(never, client.signal, form);
    client.abort(new Error("the client cancelled the request"));
    await expect(round).rejects.toThrow();
    expect(seen.signal?.aborted).toBe(true);
  });

  test("at most maxWaiting calls wait for answers: past it a question is declined", async () => {
    const rounds = new InputRounds(new FakeClock(), 1000, 1);
    const first = (await rounds.start(asking(["one"]), new AbortController().signal, form)) as Record<string, unknown>;
    expect(first.resultType).toBe("input_required");
    expect(await rounds.start(asking(["two"]), new AbortController().signal, form)).toEqual({ content: [{ type: "text", text: "decline" }] });
  });

  test("an upstream's own keys reach the client as it wrote them; on a clash (or a key too long) one of ours is used", async () => {
    const rounds = new InputRounds(new FakeClock());
    const keyed = (message: string, key?: string): ElicitationRequest => ({ ...question(message), ...(key === undefined ? {} : { key }) });
    // Three questions at once: `user_name` twice (the second clashes) and `__proto__` (must stay a key).
    const run = async (_signal: AbortSignal, client: ClientAsk) => {
      const ask = questionsThrough(client);
      const answers = await Promise.all([ask(keyed("a", "user_name")), ask(keyed("b", "user_name")), ask(keyed("c", "__proto__")), ask(keyed("d", "k".repeat(201)))]);
      return { content: [{ type: "text", text: answers.map((answer) => (answer.action === "accept" ? JSON.stringify(answer.content) : answer.action)).join(",") }] };
    };
    const first = (await rounds.start(run, new AbortController().signal, form)) as { inputRequests: Record<string, { params: { message: string } }>; requestState: string };
    expect(Object.keys(first.inputRequests)).toEqual(["user_name", "q1", "__proto__", "q2"]);
    expect(Object.getPrototypeOf(first.inputRequests)).toBe(Object.prototype);
    expect(first.inputRequests.user_name!.params.message).toBe("s: a");
    expect(first.inputRequests.q1!.params.message).toBe("s: b");
    const responses = JSON.parse('{"user_name":{"action":"accept","content":{"name":"Alice"}},"q1":{"action":"decline"},"__proto__":{"action":"accept","content":{"ok":true}},"extra":{"action":"accept"}}');
    expect(await rounds.resume(first.requestState, responses, new AbortController().signal)).toEqual({
      content: [{ type: "text", text: '{"name":"Alice"},decline,{"ok":true},cancel' }],
    });
  });

  const relayAll = (question: RelayedQuestion) => (question.method === "elicitation/create" ? form(question) : question.method === "roots/list" ? {} : question.request.params);
  const sampling: RelayedQuestion = { method: "sampling/createMessage", request: { server: "s", params: { messages: [], maxTokens: 5 }, key: "greeting" } };
  const roots: RelayedQuestion = { method: "roots/list", request: { server: "s", key: "client_roots" } };

  test("a question, a sampling request and a roots request asked together go out in one round, each under its method, and each gets its own answer", async () => {
    const rounds = new InputRounds(new FakeClock());
    const run = async (_signal: AbortSignal, ask: ClientAsk) => {
      const answers = await Promise.all([ask({ method: "elicitation/create", request: { ...question("name?"), key: "user_name" } }), ask(sampling), ask(roots)]);
      return { answers };
    };
    const first = (await rounds.start(run, new AbortController().signal, relayAll)) as { inputRequests: Record<string, unknown>; requestState: string };
    expect(first.inputRequests).toEqual({
      user_name: { method: "elicitation/create", params: { mode: "form", message: "s: name?" } },
      greeting: { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } },
      client_roots: { method: "roots/list", params: {} },
    });
    const responses = { user_name: { action: "decline" }, greeting: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" }, client_roots: { roots: [] } };
    expect(await rounds.resume(first.requestState, responses, new AbortController().signal)).toEqual({ answers: [responses.user_name, responses.greeting, responses.client_roots] });
  });

  test("a sampling request the client leaves unanswered fails upstream with why", async () => {
    const rounds = new InputRounds(new FakeClock());
    const run = (_signal: AbortSignal, ask: ClientAsk) => ask(sampling).then(
      () => "answered",
      (error: Error) => error.message,
    );
    const first = (await rounds.start(run, new AbortController().signal, relayAll)) as { requestState: string };
    expect(await rounds.resume(first.requestState, { other: {} }, new AbortController().signal)).toBe("the client of mcp serve left sampling/createMessage unanswered");
  });

  test("answers sent with the first request answer at once what is asked under their keys; unknown keys and malformed answers are ignored", async () => {
    const rounds = new InputRounds(new FakeClock());
    const run = async (_signal: AbortSignal, ask: ClientAsk) => ask({ method: "elicitation/create", request: { ...question("name?"), key: "user_name" } });
    const given = { user_name: { action: "accept", content: { name: "Alice" } }, unknown_extra_key: { action: "accept", content: { foo: "bar" } } };
    expect(await rounds.start(run, new AbortController().signal, relayAll, { firstAnswers: given })).toEqual(given.user_name);
    expect(rounds.waiting).toBe(0);
    // A malformed first answer is as if none came: the client is asked in a round.
    const asked = (await rounds.start(run, new AbortController().signal, relayAll, { firstAnswers: { user_name: 12345 } })) as Record<string, unknown>;
    expect(asked).toMatchObject({ resultType: "input_required", inputRequests: { user_name: { method: "elicitation/create" } } });
  });

  test("sampling a client did not declare fails its request with MissingRequiredClientCapability naming sampling, and the upstream call is given up", async () => {
    const rounds = new InputRounds(new FakeClock());
    const seen: { signal?: AbortSignal } = {};
    const run = async (signal: AbortSignal, ask: ClientAsk) => {
      seen.signal = signal;
      return ask(sampling).catch((error: Error) => error.message);
    };
    const refusing = (question: RelayedQuestion) => {
      if (question.method === "sampling/createMessage") throw new NotAsked("the client of mcp serve did not declare sampling", "sampling");
      return {};
    };
    const failed = rounds.start(run, new AbortController().signal, refusing);
    await expect(failed).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    await expect(failed).rejects.toThrow("the client of mcp serve did not declare sampling, which the server behind this request needs; declare sampling to use it");
    expect(seen.signal?.aborted).toBe(true);
    expect(rounds.waiting).toBe(0);
  });

  test("a request only guessed to be this call's is never answered by the answers its first request carried: it goes out in a round", async () => {
    const rounds = new InputRounds(new FakeClock());
    const run = async (_signal: AbortSignal, ask: ClientAsk) => ask({ method: "elicitation/create", request: question("name?") }, undefined, true);
    const given = { q1: { action: "accept", content: { name: "Alice" } } };
    const round = (await rounds.start(run, new AbortController().signal, relayAll, { firstAnswers: given })) as Record<string, unknown>;
    expect(round).toMatchObject({ resultType: "input_required", inputRequests: { q1: { method: "elicitation/create" } } });
  });

  test("sampling guessed to be the call of a client that did not declare it is refused, and the call goes on: no -32021", async () => {
    const rounds = new InputRounds(new FakeClock());
    const seen: { signal?: AbortSignal } = {};
    const run = async (signal: AbortSignal, ask: ClientAsk) => {
      seen.signal = signal;
      return ask(sampling, undefined, true).catch((error: Error) => `${error instanceof NotAsked ? "not asked" : "failed"}: ${error.message}`);
    };
    const refusing = (question: RelayedQuestion) => {
      if (question.method === "sampling/createMessage") throw new NotAsked("the client of mcp serve did not declare sampling", "sampling");
      return {};
    };
    expect(await rounds.start(run, new AbortController().signal, refusing)).toBe("not asked: the client of mcp serve did not declare sampling");
    expect(seen.signal?.aborted).toBe(false);
  });

  test(`a call has at most ${MAX_OPEN_QUESTIONS} requests open: past it one more is not asked (a question declined, sampling refused)`, async () => {
    const rounds = new InputRounds(new FakeClock());
    const refused: unknown[] = [];
    const run = async (_signal: AbortSignal, ask: ClientAsk) => {
      for (let n = 0; n < MAX_OPEN_QUESTIONS; n++) void ask({ method: "elicitation/create", request: question(`${n}?`) });
      await ask(sampling).catch((error: unknown) => refused.push(error));
      return new Promise<never>(() => {});
    };
    const round = (await rounds.start(run, new AbortController().signal, relayAll)) as { inputRequests: Record<string, unknown> };
    expect(Object.keys(round.inputRequests)).toHaveLength(MAX_OPEN_QUESTIONS);
    await waitFor(() => refused.length === 1, "the sampling request past the bound to be refused");
    expect(refused[0]).toBeInstanceOf(NotAsked);
    expect((refused[0] as Error).message).toContain(`has ${MAX_OPEN_QUESTIONS} requests open already`);
  });

  test("requests a handshake upstream sends at once, read apart, go out in one round: the round waits gatherMs after the first", async () => {
    const clock = new FakeClock();
    const rounds = new InputRounds(clock, 60_000, 8, 5);
    let ask: ClientAsk = async () => undefined;
    const round = rounds.start(
      async (_signal, given) => {
        ask = given;
        return new Promise<never>(() => {});
      },
      new AbortController().signal,
      relayAll,
    );
    void ask(sampling);
    await waitFor(() => clock.pending() === 1, "the round to wait for more");
    void ask(roots);
    clock.advance(5);
    expect(Object.keys(((await round) as { inputRequests: object }).inputRequests)).toEqual(["greeting", "client_roots"]);
  });

  test("a call's progress goes to the request waiting on it now, under that request's token; between rounds it is dropped", async () => {
    const rounds = new InputRounds(new FakeClock());
    const heard: string[] = [];
    const to = (request: string) => (update: { progress: number }) => heard.push(`${request}:${update.progress}`);
    let report: (progress: number) => void = () => {};
    const run = async (_signal: AbortSignal, ask: ClientAsk, progress: (update: { progress: number }) => void) => {
      report = (value) => progress({ progress: value });
      report(1);
      await ask(sampling);
      report(3);
      return "done";
    };
    const first = (await rounds.start(run, new AbortController().signal, relayAll, { progress: to("first") })) as { requestState: string };
    report(2);
    const answer = { role: "assistant", content: { type: "text", text: "hi" }, model: "m" };
    expect(await rounds.resume(first.requestState, { greeting: answer }, new AbortController().signal, to("retry"))).toBe("done");
    expect(heard).toEqual(["first:1", "retry:3"]);
  });
});
