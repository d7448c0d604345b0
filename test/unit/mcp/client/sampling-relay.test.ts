import { describe, expect, test } from "bun:test";
import { declaredCapabilities } from "../../../../src/mcp/client/client-capabilities.ts";
import { answerClientRequest, answerInputRequests } from "../../../../src/mcp/client/client-requests.ts";
import type { RequestRelay } from "../../../../src/mcp/client/request-relay.ts";
import { RootsProvider } from "../../../../src/mcp/client/roots.ts";
import { checkSamplingResult, MAX_SAMPLING_CHARS, MAX_SAMPLING_DEPTH, MAX_SAMPLING_MESSAGES, parseSamplingRequest } from "../../../../src/mcp/client/sampling.ts";
import { nestedObject } from "../../../helpers/nested-object.ts";

const PARAMS = { messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }], maxTokens: 100 };
const MESSAGE = { role: "assistant", content: { type: "text", text: "Paris" }, model: "m", stopReason: "endTurn" };

/** A relay that records what it was asked and answers MESSAGE and the client's root. */
function recordingRelay(seen: unknown[]): RequestRelay {
  return {
    sampling: async (request) => (seen.push(request), MESSAGE),
    roots: async (request) => (seen.push(request), [{ uri: "file:///client/root" }]),
  };
}

describe("sampling requests and answers are checked and bounded", () => {
  test("a well-formed request passes on whole, extra fields and all", () => {
    const params = { ...PARAMS, systemPrompt: "be brief", modelPreferences: { hints: [{ name: "x" }] } };
    expect(parseSamplingRequest("s", params, "k")).toEqual({ server: "s", params, key: "k" });
  });

  for (const [what, params, reason] of [
    ["no messages", { maxTokens: 1 }, "messages"],
    ["no maxTokens", { messages: [] }, "maxTokens"],
    ["a message without a role", { messages: [{ content: {} }], maxTokens: 1 }, "messages.0.role"],
    ["too many messages", { messages: Array.from({ length: MAX_SAMPLING_MESSAGES + 1 }, () => PARAMS.messages[0]), maxTokens: 1 }, `more than ${MAX_SAMPLING_MESSAGES} messages`],
    ["text too large", { messages: [{ role: "user", content: { type: "text", text: "x".repeat(MAX_SAMPLING_CHARS) } }], maxTokens: 1 }, "characters long"],
    ["nesting too deep", { messages: [{ role: "user", content: nestedObject(MAX_SAMPLING_DEPTH + 5) }], maxTokens: 1 }, `deeper than ${MAX_SAMPLING_DEPTH}`],
  ] as const) {
    test(`${what}: refused with -32602 naming the server and what was wrong`, () => {
      expect(() => parseSamplingRequest("srv", params)).toThrow(`invalid sampling request from 'srv'`);
      expect(() => parseSamplingRequest("srv", params)).toThrow(reason);
    });
  }

  test("a client's answer must be a CreateMessageResult", () => {
    expect(checkSamplingResult(MESSAGE)).toEqual(MESSAGE);
    expect(() => checkSamplingResult({ action: "accept" })).toThrow("the client answered sampling/createMessage with a malformed result");
    expect(() => checkSamplingResult({ ...MESSAGE, model: 3 })).toThrow("model");
  });
});

describe("a client with a relay (mcp serve's pool) and one without (the agent's)", () => {
  const roots = new RootsProvider(process.cwd());

  test("only a client with a relay declares sampling", () => {
    expect(declaredCapabilities({ roots, elicitation: async () => ({ action: "decline" }) })).not.toHaveProperty("sampling");
    expect(declaredCapabilities({ roots, relay: recordingRelay([]) })).toMatchObject({ sampling: {}, roots: { listChanged: true } });
  });

  test("without a relay sampling is refused as before: -32601 to a server request, the call failed for an input request", async () => {
    const features = { roots };
    await expect(answerClientRequest("sampling/createMessage", PARAMS, { server: "s", features, origin: "server-request" })).rejects.toMatchObject({ code: -32601 });
    await expect(answerClientRequest("sampling/createMessage", PARAMS, { server: "s", features, origin: "input-request" })).rejects.toThrow("which cat-code did not declare it can answer");
    // And roots are cat-code's own.
    expect(await answerClientRequest("roots/list", {}, { server: "s", features, origin: "server-request" })).toEqual({ roots: roots.list() });
  });

  test("with a relay sampling is relayed (checked first, under its key) and roots are the relay's when it has them", async () => {
    const seen: unknown[] = [];
    const features = { roots, relay: recordingRelay(seen) };
    expect(await answerClientRequest("sampling/createMessage", PARAMS, { server: "s", features, origin: "input-request", key: "capital_question" })).toEqual(MESSAGE);
    expect(await answerClientRequest("roots/list", {}, { server: "s", features, origin: "server-request" })).toEqual({ roots: [{ uri: "file:///client/root" }] });
    expect(seen).toEqual([{ server: "s", params: PARAMS, key: "capital_question" }, { server: "s" }]);
    await expect(answerClientRequest("sampling/createMessage", { messages: 3 }, { server: "s", features, origin: "server-request" })).rejects.toMatchObject({ code: -32602 });
    const ownRoots = { roots, relay: { ...recordingRelay([]), roots: async () => undefined } };
    expect(await answerClientRequest("roots/list", {}, { server: "s", features: ownRoots, origin: "server-request" })).toEqual({ roots: roots.list() });
  });

  test("a round's input requests are asked one after the other by default, side by side when the answerer says so", async () => {
    const inputRequests = {
      first: { method: "elicitation/create" as const, params: { message: "a", requestedSchema: { type: "object", properties: {} } } },
      second: { method: "elicitation/create" as const, params: { message: "b", requestedSchema: { type: "object", properties: {} } } },
    };
    for (const together of [false, true]) {
      let open = 0;
      let most = 0;
      const elicitation = async () => {
        most = Math.max(most, ++open);
        await Promise.resolve();
        open--;
        return { action: "decline" as const };
      };
      const answers = await answerInputRequests(inputRequests, { server: "s", features: { elicitation, inputRequestsTogether: together } });
      expect(answers).toEqual({ first: { action: "decline" }, second: { action: "decline" } });
      expect(most).toBe(together ? 2 : 1);
    }
  });
});
