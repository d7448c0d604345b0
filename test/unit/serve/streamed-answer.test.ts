/** An answer streamed as server-sent events: open at once, its work stopped when the client cancels, its place given back once. */
import { expect, test } from "bun:test";
import type { JsonRpcResponse } from "../../../src/mcp/protocol.ts";
import { streamedAnswer } from "../../../src/serve/streamed-answer.ts";
import { waitFor } from "../../helpers/wait-for.ts";

function pendingAnswer() {
  let finish: (response: JsonRpcResponse) => void = () => {};
  const answering = new Promise<JsonRpcResponse>((resolve) => (finish = resolve));
  return { answer: () => answering, finish };
}

test("the stream opens with a comment line, then carries progress and the response, and gives its place back once", async () => {
  const { answer, finish } = pendingAnswer();
  const events: string[] = [];
  const response = streamedAnswer(async (notify) => (notify("notifications/progress", { progress: 1 }), answer()), { closed: () => events.push("closed"), gone: () => events.push("gone") });
  const reader = response.body!.getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toBe(": cat-code mcp serve\n\n");
  finish({ jsonrpc: "2.0", id: 1, result: {} });
  let text = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
  expect(text).toContain('"method":"notifications/progress"');
  expect(text).toEndWith('data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
  expect(events).toEqual(["closed"]);
});

test("a cancelled stream stops the answer's work at once, and gives its place back only when the answer is done", async () => {
  const { answer, finish } = pendingAnswer();
  const events: string[] = [];
  const response = streamedAnswer(answer, { closed: () => events.push("closed"), gone: () => events.push("gone") });
  await response.body!.cancel();
  expect(events).toEqual(["gone"]);
  finish({ jsonrpc: "2.0", id: 1, error: { code: -32800, message: "cancelled" } });
  await waitFor(() => events.length === 2, () => `closed after the answer; got ${events.join(", ")}`);
  expect(events).toEqual(["gone", "closed"]);
});
