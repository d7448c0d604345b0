import { describe, expect, test } from "bun:test";
import type { ElicitationRequest } from "../../../src/mcp/index.ts";
import { McpError } from "../../../src/mcp/light-index.ts";
import { NotAsked, type ClientAsk, type RelayedQuestion } from "../../../src/serve/client-questions.ts";
import { MAX_CLIENT_ROOTS } from "../../../src/serve/client-roots.ts";
import { QuestionRouter } from "../../../src/serve/question-router.ts";
import { MAX_OPEN_QUESTIONS, StreamQuestions } from "../../../src/serve/stream-questions.ts";

const question = (server: string): ElicitationRequest => ({
  server,
  mode: "form",
  message: "Which one?",
  requestedSchema: { type: "object", properties: {} },
  form: { fields: [] } as never,
});
const elicit = (server: string): RelayedQuestion => ({ method: "elicitation/create", request: question(server) });
const sample = (server: string): RelayedQuestion => ({ method: "sampling/createMessage", request: { server, params: { messages: [], maxTokens: 10 } } });
const answering = (label: string, asked: string[]): ClientAsk => async () => {
  asked.push(label);
  return { action: "decline" };
};
const MESSAGE = { role: "assistant", content: { type: "text", text: "Paris" }, model: "m", stopReason: "endTurn" };

/** Runs `ask` as the one call on server "a" while `check` runs. */
async function duringCall<T>(router: QuestionRouter, ask: ClientAsk, check: () => Promise<T>): Promise<T> {
  let finish = () => {};
  const call = router.during({ server: "a", signal: new AbortController().signal, ask }, () => new Promise<void>((resolve) => (finish = resolve)));
  try {
    return await check();
  } finally {
    finish();
    await call;
  }
}

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

  test("requests a server sends at once, naming no call, all go to the call the first went to, even when an older call waits", async () => {
    const router = new QuestionRouter();
    const asked: string[] = [];
    let finish = () => {};
    const running = new Promise<void>((resolve) => (finish = resolve));
    const abandoned = router.during({ server: "a", signal: new AbortController().signal, ask: () => new Promise(() => {}) }, () => running);
    void router.answer(question("a"), undefined);
    const current = router.during({ server: "a", signal: new AbortController().signal, ask: (relayed) => (asked.push(relayed.method), new Promise(() => {})) }, () => running);
    void router.answer(question("a"), undefined);
    void router.relay.sampling({ server: "a", params: {} });
    void router.relay.roots({ server: "a" });
    expect(asked).toEqual(["elicitation/create", "sampling/createMessage", "roots/list"]);
    finish();
    await Promise.all([abandoned, current]);
  });

  test("a question that names no call passes over a call still waiting for its own answer (a round its client never came back for)", async () => {
    const router = new QuestionRouter();
    const asked: string[] = [];
    let finish = () => {};
    const running = new Promise<void>((resolve) => (finish = resolve));
    const never: ClientAsk = () => new Promise(() => {});
    const abandoned = router.during({ server: "a", signal: new AbortController().signal, ask: never }, () => running);
    void router.answer(question("a"), undefined);
    const current = router.during({ server: "a", signal: new AbortController().signal, ask: answering("current call", asked) }, () => running);
    await router.answer(question("a"), undefined);
    expect(asked).toEqual(["current call"]);
    finish();
    await Promise.all([abandoned, current]);
  });

  test("a question the client was not asked is declined; one it answered badly or not at all is cancelled", async () => {
    const router = new QuestionRouter();
    const notAsked: ClientAsk = async () => Promise.reject(new NotAsked("no elicitation"));
    expect(await duringCall(router, notAsked, () => router.answer(question("a")))).toEqual({ action: "decline" });
    expect(await duringCall(router, async () => ({ action: "maybe" }), () => router.answer(question("a")))).toEqual({ action: "cancel" });
    expect(await duringCall(router, async () => Promise.reject(new Error("gone")), () => router.answer(question("a")))).toEqual({ action: "cancel" });
  });

  test("sampling goes to the client of the call; its answer is checked, and a client without sampling is a clear refusal upstream", async () => {
    const router = new QuestionRouter();
    const request = { server: "a", params: { messages: [], maxTokens: 10 } };
    const seen: RelayedQuestion[] = [];
    const model: ClientAsk = async (relayed) => {
      seen.push(relayed);
      return MESSAGE;
    };
    expect(await duringCall(router, model, () => router.relay.sampling(request))).toEqual(MESSAGE);
    expect(seen).toEqual([{ method: "sampling/createMessage", request }]);
    const refused = duringCall(router, async () => Promise.reject(new NotAsked("the client of mcp serve did not declare sampling")), () => router.relay.sampling(request));
    await expect(refused).rejects.toThrow("the client of mcp serve did not declare sampling; sampling/createMessage of 'a' was not passed on");
    await expect(duringCall(router, async () => ({ role: "assistant" }), () => router.relay.sampling(request))).rejects.toThrow(/malformed result: content/);
    // Its own error reaches the server as it was.
    await expect(duringCall(router, async () => Promise.reject(new McpError(-1, "User rejected sampling request")), () => router.relay.sampling(request))).rejects.toThrow("User rejected");
    // No call and nobody outside: refused, not left hanging.
    await expect(router.relay.sampling(request)).rejects.toBeInstanceOf(McpError);
  });

  test(`roots come from the client of the call (at most ${MAX_CLIENT_ROOTS}), else are cat-code's own (undefined): outside a call, a client not asked, a malformed answer`, async () => {
    const router = new QuestionRouter();
    const many = { roots: Array.from({ length: MAX_CLIENT_ROOTS + 5 }, (_, n) => ({ uri: `file:///r${n}` })) };
    const listed = await duringCall(router, async () => many, () => router.relay.roots({ server: "a" }));
    expect(listed?.length).toBe(MAX_CLIENT_ROOTS);
    expect(listed?.[0]).toEqual({ uri: "file:///r0" });
    router.answerOutsideCallsWith(async () => many);
    expect(await router.relay.roots({ server: "a" })).toBeUndefined();
    expect(await duringCall(router, async () => Promise.reject(new NotAsked("no roots")), () => router.relay.roots({ server: "a" }))).toBeUndefined();
    expect(await duringCall(router, async () => ({ roots: [{ uri: "https://x" }] }), () => router.relay.roots({ server: "a" }))).toBeUndefined();
  });
});

describe("StreamQuestions", () => {
  const form = () => ({ elicitation: { form: {} } });

  test("a question is sent as elicitation/create with an id of ours; the client's POSTed response answers it", async () => {
    const questions = new StreamQuestions(form);
    const sent: Array<Record<string, unknown>> = [];
    const answer = questions.ask((message) => sent.push(message as Record<string, unknown>), elicit("a"));
    expect(sent[0]).toMatchObject({ jsonrpc: "2.0", id: "cat-code-q-1", method: "elicitation/create", params: { message: "a: Which one?" } });
    expect(questions.answered({ jsonrpc: "2.0", id: 1, result: { action: "accept" } })).toBe(false);
    expect(questions.answered({ jsonrpc: "2.0", id: "cat-code-q-1", result: { action: "accept", content: { x: "y" } } })).toBe(true);
    expect(await answer).toEqual({ action: "accept", content: { x: "y" } });
  });

  test("a sampling request goes out whole to a client that declared sampling; an error response rejects with the client's words; a client that cannot answer is never asked", async () => {
    const questions = new StreamQuestions(() => ({ sampling: {} }));
    const sent: Array<Record<string, unknown>> = [];
    const answer = questions.ask((message) => sent.push(message as Record<string, unknown>), sample("a"));
    expect(sent[0]).toEqual({ jsonrpc: "2.0", id: "cat-code-q-1", method: "sampling/createMessage", params: { messages: [], maxTokens: 10 } });
    questions.answered({ jsonrpc: "2.0", id: "cat-code-q-1", error: { code: -1, message: "User rejected sampling request" } });
    await expect(answer).rejects.toThrow("the client of mcp serve answered with an error: User rejected sampling request");
    const none: object[] = [];
    await expect(new StreamQuestions(form).ask((message) => none.push(message), sample("a"))).rejects.toBeInstanceOf(NotAsked);
    // A handshake client's roots were adopted at its handshake: never asked again during a call.
    await expect(new StreamQuestions(() => ({ roots: {} })).ask((message) => none.push(message), { method: "roots/list", request: { server: "a" } })).rejects.toBeInstanceOf(NotAsked);
    expect(none).toEqual([]);
  });

  test(`at most ${MAX_OPEN_QUESTIONS} open at once; ending the session fails them`, async () => {
    const questions = new StreamQuestions(form);
    const open = Array.from({ length: MAX_OPEN_QUESTIONS }, () => questions.ask(() => {}, elicit("a")).catch((error: Error) => error.message));
    await expect(questions.ask(() => {}, elicit("a"))).rejects.toBeInstanceOf(NotAsked);
    questions.cancelAll();
    expect(new Set(await Promise.all(open))).toEqual(new Set(["the client's session of mcp serve ended"]));
  });
});
