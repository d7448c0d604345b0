import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ElicitationRequest } from "../../../src/mcp/index.ts";
import { McpError } from "../../../src/mcp/light-index.ts";
import { MAX_OPEN_QUESTIONS, NotAsked, type ClientAsk, type RelayedQuestion } from "../../../src/serve/client-questions.ts";
import { adoptClientRoots, MAX_CLIENT_ROOTS } from "../../../src/serve/client-roots.ts";
import { GATHER_MS } from "../../../src/serve/input-rounds.ts";
import { QuestionRouter } from "../../../src/serve/question-router.ts";
import { StreamQuestions } from "../../../src/serve/stream-questions.ts";
import { RootsProvider } from "../../../src/mcp/client/roots.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { ServeConnection } from "../../../src/serve/serve-connection.ts";
import { ServeMethods } from "../../../src/serve/serve-methods.ts";
import { StdioDownstream } from "../../../src/serve/stdio-downstream.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";
import { tempDir } from "../../helpers/paths.ts";

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
  const call = router.during({ server: "a", signal: new AbortController().signal, client: {}, ask }, () => new Promise<void>((resolve) => (finish = resolve)));
  try {
    return await check();
  } finally {
    finish();
    await call;
  }
}

describe("QuestionRouter", () => {
  test("a question goes to the call sent with its signal, else to the oldest call on its server (one client's), else outside, else declined", async () => {
    const router = new QuestionRouter();
    const asked: string[] = [];
    const [first, second] = [new AbortController().signal, new AbortController().signal];
    let finish = () => {};
    const running = new Promise<void>((resolve) => (finish = resolve));
    const client = {};
    const calls = Promise.all([
      router.during({ server: "a", signal: first, client, ask: answering("first call", asked) }, () => running),
      router.during({ server: "a", signal: second, client, ask: answering("second call", asked) }, () => running),
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

  test("requests a server sends at once, naming no call, all go to the call the first went to while its round gathers, even when another client's call waits; later, to none", async () => {
    const clock = new FakeClock();
    const router = new QuestionRouter(clock);
    const asked: string[] = [];
    let finish = () => {};
    const running = new Promise<void>((resolve) => (finish = resolve));
    const abandoned = router.during({ server: "a", signal: new AbortController().signal, client: {}, ask: () => new Promise(() => {}) }, () => running);
    void router.answer(question("a"), undefined);
    const current = router.during({ server: "a", signal: new AbortController().signal, client: {}, ask: (relayed, _signal, guessed) => (asked.push(`${relayed.method}${guessed ? " (guessed)" : ""}`), new Promise(() => {})) }, () => running);
    clock.advance(GATHER_MS * 10);
    void router.answer(question("a"), undefined);
    clock.advance(GATHER_MS);
    void router.relay.sampling({ server: "a", params: {} });
    void router.relay.roots({ server: "a" });
    expect(asked).toEqual(["elicitation/create (guessed)", "sampling/createMessage (guessed)", "roots/list (guessed)"]);
    // Its round has gone out: what comes now is not for it more than for the other client's call.
    clock.advance(GATHER_MS + 1);
    expect(await router.answer(question("a"), undefined)).toEqual({ action: "decline" });
    expect(asked).toHaveLength(3);
    finish();
    await Promise.all([abandoned, current]);
  });

  test("a request that came during a client's request that is not a call (a completion), or during a call that ended, is outside any call: never another client's", async () => {
    const router = new QuestionRouter();
    const asked: string[] = [];
    let finish = () => {};
    const running = new Promise<void>((resolve) => (finish = resolve));
    const ended = new AbortController().signal;
    await router.during({ server: "a", signal: ended, client: {}, ask: answering("ended call", asked) }, async () => {});
    const other = router.during({ server: "a", signal: new AbortController().signal, client: {}, ask: answering("B's call", asked) }, () => running);
    const completion = new AbortController().signal;
    const request = { server: "a", params: { messages: [], maxTokens: 10 } };
    await expect(router.relay.sampling(request, undefined, completion)).rejects.toThrow("'a' asked during a request of mcp serve's client that is not a running call; sampling/createMessage of 'a' was not passed on");
    expect(await router.answer(question("a"), undefined, ended)).toEqual({ action: "decline" });
    expect(await router.relay.roots({ server: "a" }, ended)).toBeUndefined();
    // Outside any call: the answerer for those (a stdio client) is asked, when there is one.
    const release = router.answerOutsideCallsWith(answering("outside", asked));
    await router.answer(question("a"), undefined, completion);
    release();
    expect(asked).toEqual(["outside"]);
    finish();
    await other;
  });

  test("a request that names no call, while calls of two clients run on its server, is asked of neither: declined, refused, cat-code's own roots", async () => {
    const router = new QuestionRouter();
    const asked: string[] = [];
    let finish = () => {};
    const running = new Promise<void>((resolve) => (finish = resolve));
    const calls = Promise.all([
      router.during({ server: "a", signal: new AbortController().signal, client: {}, ask: answering("A's call", asked) }, () => running),
      router.during({ server: "a", signal: new AbortController().signal, client: {}, ask: answering("B's call", asked) }, () => running),
    ]);
    router.answerOutsideCallsWith(answering("outside", asked));
    expect(await router.answer(question("a"), new AbortController().signal)).toEqual({ action: "decline" });
    await expect(router.relay.sampling({ server: "a", params: {} })).rejects.toThrow("'a' named no call, and calls of more than one client of mcp serve run on it");
    expect(await router.relay.roots({ server: "a" })).toBeUndefined();
    expect(asked).toEqual([]);
    finish();
    await calls;
  });

  test("a question that names no call passes over a call still waiting for its own answer (a round its client never came back for)", async () => {
    const router = new QuestionRouter();
    const asked: string[] = [];
    let finish = () => {};
    const running = new Promise<void>((resolve) => (finish = resolve));
    const never: ClientAsk = () => new Promise(() => {});
    const abandoned = router.during({ server: "a", signal: new AbortController().signal, client: {}, ask: never }, () => running);
    void router.answer(question("a"), undefined);
    const current = router.during({ server: "a", signal: new AbortController().signal, client: {}, ask: answering("current call", asked) }, () => running);
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
    const dir = tempDir();
    const folders = Array.from({ length: MAX_CLIENT_ROOTS + 5 }, (_, n) => join(dir, `r${n}`));
    for (const folder of folders) mkdirSync(folder);
    const many = { roots: folders.map((folder) => ({ uri: pathToFileURL(folder).href })) };
    const listed = await duringCall(router, async () => many, () => router.relay.roots({ server: "a" }));
    expect(listed?.length).toBe(MAX_CLIENT_ROOTS);
    expect(listed?.[0]).toEqual({ uri: pathToFileURL(folders[0]!).href });
    router.answerOutsideCallsWith(async () => many);
    expect(await router.relay.roots({ server: "a" })).toBeUndefined();
    expect(await duringCall(router, async () => Promise.reject(new NotAsked("no roots")), () => router.relay.roots({ server: "a" }))).toBeUndefined();
    expect(await duringCall(router, async () => ({ roots: "all of them" }), () => router.relay.roots({ server: "a" }))).toBeUndefined();
  });

  test("a client's roots that are not folders on this machine (a missing folder, a file, a non-file URI, another host's) are dropped, relayed or adopted alike", async () => {
    const dir = tempDir();
    const here = join(dir, "work");
    mkdirSync(here);
    await Bun.write(join(dir, "file.txt"), "x");
    const answer = {
      roots: [
        { uri: "https://example.com/repo" },
        { uri: pathToFileURL(join(dir, "missing")).href },
        { uri: pathToFileURL(join(dir, "file.txt")).href },
        { uri: "file://elsewhere/home/user" },
        { uri: pathToFileURL(here).href, name: "work" },
      ],
    };
    const router = new QuestionRouter();
    expect(await duringCall(router, async () => answer, () => router.relay.roots({ server: "a" }))).toEqual([{ uri: pathToFileURL(here).href, name: "work" }]);
    const roots = new RootsProvider(tempDir());
    expect(await adoptClientRoots(async () => answer, roots)).toBe(1);
    expect(roots.list().map((root) => root.name)).toContain("work");
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

describe("ServeConnection (a stdio client)", () => {
  test(`at most ${MAX_OPEN_QUESTIONS} requests relayed to it open at once: past it a sampling request is refused upstream, naming the bound`, async () => {
    const lines: Array<Record<string, unknown>> = [];
    let input: ReadableStreamDefaultController<Uint8Array> | undefined;
    const streams = {
      input: new ReadableStream<Uint8Array>({ start: (controller) => void (input = controller) }),
      write: async (text: string) => void lines.push(JSON.parse(text)),
    };
    const say = (message: object) => input?.enqueue(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
    const pool = new ServerPool([]);
    const methods = new ServeMethods(pool);
    const connection = new ServeConnection(new StdioDownstream(streams), methods, pool);
    await connection.start();
    say({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { sampling: {} }, clientInfo: { name: "t", version: "1" } } });
    await waitFor(() => lines.some((line) => line.id === 1), "the initialize answer");
    say({ jsonrpc: "2.0", method: "notifications/initialized" });
    const request = { server: "a", params: { messages: [], maxTokens: 10 } };
    const open = Array.from({ length: MAX_OPEN_QUESTIONS }, () => methods.questions.relay.sampling(request).catch(() => "ended"));
    await expect(methods.questions.relay.sampling(request)).rejects.toThrow(`the client of mcp serve has ${MAX_OPEN_QUESTIONS} requests open already`);
    expect(lines.filter((line) => line.method === "sampling/createMessage")).toHaveLength(MAX_OPEN_QUESTIONS);
    await connection.close();
    await Promise.all(open);
  });
});
