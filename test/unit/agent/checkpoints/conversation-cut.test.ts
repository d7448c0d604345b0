import { expect, test } from "bun:test";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { conversationBefore, promptPosition } from "../../../../src/agent/checkpoints/conversation-cut.ts";
import { Conversation } from "../../../../src/agent/conversation.ts";

const user = (text: string): MessageParam => ({ role: "user", content: [{ type: "text", text }] });
const assistant = (text: string): MessageParam => ({ role: "assistant", content: [{ type: "text", text }] });

test("the conversation before a prompt is what it was when the prompt began", () => {
  const conversation = new Conversation();
  conversation.load([user("one"), assistant("answer one")]);
  const at = promptPosition(conversation.snapshot());
  conversation.addUserText("two");
  conversation.addAssistant([{ type: "text", text: "answer two", citations: null }]);
  expect(at).toMatchObject({ message: 2, block: 0 });
  expect(conversationBefore(conversation.snapshot(), at)).toEqual([user("one"), assistant("answer one")]);
});

test("a prompt joined to the user message a cancelled turn left is cut at its first block", () => {
  const conversation = new Conversation();
  conversation.load([user("one"), assistant("answer"), user("[Request interrupted by user]")]);
  const at = promptPosition(conversation.snapshot());
  conversation.addUserText("two");
  expect(at).toMatchObject({ message: 2, block: 1 });
  expect(conversationBefore(conversation.snapshot(), at)).toEqual([user("one"), assistant("answer"), user("[Request interrupted by user]")]);
});

test("a conversation that no longer begins as it did (compacted, cleared) cannot be cut there", () => {
  const messages = [user("one"), assistant("answer one")];
  const at = promptPosition(messages);
  expect(conversationBefore([user("a summary"), assistant("ok"), user("two")], at)).toBeUndefined();
  expect(conversationBefore([], at)).toBeUndefined();
});

test("the same conversation read back with its keys in another order still matches", () => {
  const at = promptPosition([{ role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] }]);
  const readBack = JSON.parse('[{"content":[{"content":"x","tool_use_id":"t1","type":"tool_result"}],"role":"user"},{"role":"user","content":"later"}]');
  expect(conversationBefore(readBack, at)).toHaveLength(1);
});
