import { describe, expect, test } from "bun:test";
import { answerClientRequest, answerInputRequests } from "../../../../src/mcp/client/client-requests.ts";
import type { ElicitationRequest } from "../../../../src/mcp/client/elicitation.ts";

const params = { message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } };

describe("the key of an input request", () => {
  test("goes with the question to the handler (a gateway passes it on under the same key)", async () => {
    const seen: ElicitationRequest[] = [];
    const features = { elicitation: async (request: ElicitationRequest) => (seen.push(request), { action: "decline" as const }) };
    const answers = await answerInputRequests({ user_name: { method: "elicitation/create", params } }, { server: "s", features });
    expect(Object.keys(answers)).toEqual(["user_name"]);
    expect(seen.map((request) => request.key)).toEqual(["user_name"]);
  });

  test("a server request (elicitation/create over a handshake revision) has none", async () => {
    const seen: ElicitationRequest[] = [];
    const features = { elicitation: async (request: ElicitationRequest) => (seen.push(request), { action: "decline" as const }) };
    await answerClientRequest("elicitation/create", params, { server: "s", features, origin: "server-request" });
    expect(seen).toHaveLength(1);
    expect("key" in seen[0]!).toBe(false);
  });
});
