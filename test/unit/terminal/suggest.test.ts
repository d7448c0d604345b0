import { expect, test } from "bun:test";
import { unknownNameMessage } from "../../../src/terminal/suggest.ts";

test("an unknown name gets the nearest names and the list of those that exist", () => {
  expect(unknownNameMessage("server", "ecko", ["echo", "fs"])).toBe("unknown server 'ecko'. Did you mean: echo? Available servers: echo, fs.");
});

test("a server offering thousands of names gets a bounded message: 20 listed and a count", () => {
  const names = Array.from({ length: 5000 }, (_, i) => `tool_${i}`);
  const message = unknownNameMessage("tool", "nope", names);
  expect(message).toEndWith("tool_19 and 4980 more.");
  expect(message.length).toBeLessThan(400);
});
