import { expect, test } from "bun:test";
import { answerWithDefaults, MAX_MESSAGE_CHARS, MAX_URL_CHARS, parseElicitationRequest } from "../../../../src/mcp/client/elicitation.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";

function refusal(params: unknown): McpError {
  try {
    parseElicitationRequest("github", params);
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error("the request was accepted");
}

const schema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

test("a form request without a mode is form mode, and carries its checked fields", () => {
  const request = parseElicitationRequest("github", { message: "Your name?", requestedSchema: schema });
  expect(request).toMatchObject({ server: "github", mode: "form", message: "Your name?", requestedSchema: schema });
  expect(request.mode === "form" && request.form.fields.map((field) => field.name)).toEqual(["name"]);
});

test("a url request keeps the link as sent, and the 2025-11-25 elicitationId", () => {
  expect(parseElicitationRequest("pay", { mode: "url", message: "Pay", url: "https://pay.example/x?y=1", elicitationId: "e1" })).toEqual({
    server: "pay",
    mode: "url",
    message: "Pay",
    url: "https://pay.example/x?y=1",
    elicitationId: "e1",
  });
});

test("a request that breaks the spec is InvalidParams naming the server and the reason, never a decline", () => {
  const cases: [unknown, string][] = [
    [null, "params must be an object"],
    [{ requestedSchema: schema }, "message must be a string"],
    [{ message: "m", requestedSchema: { type: "object", properties: { a: { type: "object" } } } }, 'field "a" has type "object"'],
    [{ message: "m" }, "requestedSchema must be an object"],
    [{ mode: "url", message: "m", url: "not a url" }, "url must be a URL"],
    [{ mode: "url", message: "m", url: `https://x.example/${"a".repeat(MAX_URL_CHARS)}` }, "characters long (at most 4096)"],
    [{ mode: "telepathy", message: "m" }, 'unknown mode "telepathy" (form or url)'],
  ];
  for (const [params, reason] of cases) {
    const error = refusal(params);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toStartWith("invalid elicitation request from 'github': ");
    expect(error.message).toContain(reason);
  }
});

test("a very long message is cut where it enters", () => {
  const request = parseElicitationRequest("s", { message: "m".repeat(MAX_MESSAGE_CHARS * 10), requestedSchema: { type: "object", properties: {} } });
  expect(request.message.length).toBe(MAX_MESSAGE_CHARS);
  expect(request.message.endsWith("m…")).toBe(true);
});

test("with nobody to ask, answerWithDefaults sends a form's defaults; it declines a link and a required field without one", async () => {
  const form = parseElicitationRequest("s", {
    message: "m",
    requestedSchema: { type: "object", properties: { name: { type: "string", default: "John Doe" }, age: { type: "integer", default: 30 }, note: { type: "string" } } },
  });
  expect(await answerWithDefaults(form)).toEqual({ action: "accept", content: { name: "John Doe", age: 30 } });
  expect(await answerWithDefaults(parseElicitationRequest("s", { mode: "url", message: "m", url: "https://x.example/" }))).toEqual({ action: "decline" });
  const unanswerable = parseElicitationRequest("s", { message: "m", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } });
  expect(await answerWithDefaults(unanswerable)).toEqual({ action: "decline" });
});
