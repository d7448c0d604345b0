import { expect, test } from "bun:test";
import { AgentError } from "../../../src/agent/agent-error.ts";
import { TurnRenderer } from "../../../src/repl/turn-renderer.ts";

test("a retry notice shows the API's reason as text: no escape sequence reaches the terminal", () => {
  let info = "";
  const renderer = new TurnRenderer(undefined, { write: (text: string) => (info += text) });
  const error = new AgentError("overloaded", "x", 529, { reason: "overloaded\u001b]0;pwned\u0007\u001b[2J\u202e now" });
  renderer.onRetry({ error, retry: 1, maxRetries: 3, delayMs: 1500 });
  expect(info).toBe("⎿ overloaded now; retrying in 1.5s (1/3)\n");
});
