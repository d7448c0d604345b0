import { describe, expect, test } from "bun:test";
import { MAX_INPUT_ROUNDS, sendWithInputRounds } from "../../../../src/mcp/client/input-required.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";
import type { InputRequest } from "../../../../src/mcp/stateless-protocol.ts";

const complete = { resultType: "complete", content: [{ type: "text", text: "done" }] };
const askName = {
  method: "elicitation/create",
  params: { mode: "form", message: "Your GitHub login?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
};

/** A fake server: answers each send with the next scripted result, and records what was sent. */
function scripted(...results: unknown[]) {
  const sent: Record<string, unknown>[] = [];
  const send = async (params: Record<string, unknown>) => {
    sent.push(params);
    if (results.length === 0) throw new Error("the script ran out");
    return results.shift();
  };
  return { sent, send };
}

const acceptAll = async (requests: Record<string, InputRequest>) =>
  Object.fromEntries(Object.keys(requests).map((key) => [key, { action: "accept", content: { name: "octocat" } }]));

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error("expected an McpError");
}

describe("sendWithInputRounds", () => {
  test("a complete result comes back as it is, after one send", async () => {
    const server = scripted(complete);
    expect(await sendWithInputRounds({ name: "t" }, { method: "tools/call", send: server.send, answer: acceptAll })).toBe(complete);
    expect(server.sent).toEqual([{ name: "t" }]);
  });

  test("a result without resultType (an older server) is complete", async () => {
    const old = { content: [] };
    const server = scripted(old);
    expect(await sendWithInputRounds({}, { method: "tools/call", send: server.send, answer: acceptAll })).toBe(old);
  });

  test("input requests are answered and the retry carries the answers and the state exactly", async () => {
    const state = "AEAD blob: opaque, \u0000 and all";
    const server = scripted({ resultType: "input_required", inputRequests: { github_login: askName }, requestState: state }, complete);
    const asked: unknown[] = [];
    const answer = async (requests: Record<string, InputRequest>) => {
      asked.push(requests);
      return acceptAll(requests);
    };
    expect(await sendWithInputRounds({ name: "t", arguments: { a: 1 } }, { method: "tools/call", send: server.send, answer })).toBe(complete);
    expect(asked).toEqual([{ github_login: askName }]);
    expect(server.sent[1]).toEqual({
      name: "t",
      arguments: { a: 1 },
      inputResponses: { github_login: { action: "accept", content: { name: "octocat" } } },
      requestState: state,
    });
  });

  test("without requestState the retry has none; without inputRequests it has no inputResponses", async () => {
    const server = scripted(
      { resultType: "input_required", inputRequests: { roots: { method: "roots/list" } } },
      { resultType: "input_required", requestState: "s2" },
      complete,
    );
    let answered = 0;
    const answer = async () => {
      answered++;
      return { roots: { roots: [{ uri: "file:///work" }] } };
    };
    await sendWithInputRounds({ name: "t" }, { method: "tools/call", send: server.send, answer });
    expect("requestState" in (server.sent[1] as object)).toBe(false);
    expect(server.sent[1]?.inputResponses).toEqual({ roots: { roots: [{ uri: "file:///work" }] } });
    // Round two asked nothing: answered once only, and the answers of round one are not sent again.
    expect(answered).toBe(1);
    expect(server.sent[2]).toEqual({ name: "t", requestState: "s2" });
  });

  test("what the caller's params carried as inputResponses or requestState is not sent on a retry", async () => {
    const server = scripted({ resultType: "input_required", requestState: "new" }, complete);
    await sendWithInputRounds({ name: "t", requestState: "stale", inputResponses: { x: 1 } }, { method: "tools/call", send: server.send, answer: acceptAll });
    expect(server.sent[1]).toEqual({ name: "t", requestState: "new" });
  });

  test("the caller's params are never changed", async () => {
    const params = { name: "t", arguments: { a: 1 }, _meta: { progressToken: 1 } };
    const before = structuredClone(params);
    const server = scripted({ resultType: "input_required", inputRequests: { k: askName }, requestState: "s" }, complete);
    await sendWithInputRounds(params, { method: "tools/call", send: server.send, answer: acceptAll });
    expect(params).toEqual(before);
    expect(server.sent[1]).not.toBe(params);
  });

  test(`more than ${MAX_INPUT_ROUNDS} rounds is a clear error`, async () => {
    const again = { resultType: "input_required", requestState: "again" };
    const server = scripted(...Array.from({ length: MAX_INPUT_ROUNDS + 5 }, () => again));
    const error = await rejection(sendWithInputRounds({}, { method: "tools/call", send: server.send, answer: acceptAll }));
    expect(error.code).toBe(ErrorCode.InvalidResult);
    expect(error.message).toBe(`tools/call: the server asked for input ${MAX_INPUT_ROUNDS} times without finishing; gave up`);
    expect(server.sent).toHaveLength(MAX_INPUT_ROUNDS + 1);
  });

  test("maxRounds is the caller's to choose", async () => {
    const server = scripted({ resultType: "input_required", requestState: "1" }, { resultType: "input_required", requestState: "2" }, complete);
    const error = await rejection(sendWithInputRounds({}, { method: "prompts/get", send: server.send, answer: acceptAll, maxRounds: 1 }));
    expect(error.message).toContain("asked for input 1 times");
  });

  test.each([
    ["an unknown input method", { resultType: "input_required", inputRequests: { k: { method: "tools/call", params: {} } } }, 'inputRequests.k.method: unknown input request method "tools/call"'],
    ["neither requests nor state", { resultType: "input_required" }, "it carries neither inputRequests nor requestState"],
    ["empty requests and no state", { resultType: "input_required", inputRequests: {} }, "it carries neither inputRequests nor requestState"],
    ["a state that is not a string", { resultType: "input_required", requestState: 42 }, "requestState:"],
    ["an unknown resultType", { resultType: "task" }, 'unknown resultType "task"'],
    ["too many requests", { resultType: "input_required", inputRequests: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, askName])) }, "100 input requests in one round"],
  ])("an interim result with %s is InvalidResult", async (_, result, why) => {
    const server = scripted(result);
    let answered = false;
    const answer = async () => {
      answered = true;
      return {};
    };
    const error = await rejection(sendWithInputRounds({}, { method: "resources/read", send: server.send, answer }));
    expect(error.code).toBe(ErrorCode.InvalidResult);
    expect(error.message).toStartWith("resources/read: the server asked for input in a malformed way: ");
    expect(error.message).toContain(why);
    expect(answered).toBe(false);
    expect(server.sent).toHaveLength(1);
  });

  test("a cancelled caller starts no further round", async () => {
    const controller = new AbortController();
    const server = scripted({ resultType: "input_required", inputRequests: { k: askName } }, complete);
    const answer = async (requests: Record<string, InputRequest>) => {
      controller.abort();
      return acceptAll(requests);
    };
    const error = await rejection(sendWithInputRounds({}, { method: "tools/call", send: server.send, answer, signal: controller.signal }));
    expect(error.isCancelled).toBe(true);
    expect(server.sent).toHaveLength(1);
  });

  test("a failure of send or answer passes through unchanged", async () => {
    const failure = new McpError(-32602, "Unknown tool");
    await expect(sendWithInputRounds({}, { method: "tools/call", send: () => Promise.reject(failure), answer: acceptAll })).rejects.toBe(failure);
    const declined = new Error("the user closed the form");
    const server = scripted({ resultType: "input_required", inputRequests: { k: askName } });
    await expect(sendWithInputRounds({}, { method: "tools/call", send: server.send, answer: () => Promise.reject(declined) })).rejects.toBe(declined);
  });
});
