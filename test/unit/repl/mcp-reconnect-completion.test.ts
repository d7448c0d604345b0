import { expect, test } from "bun:test";
import { createCompleter } from "../../../src/repl/completion.ts";
import { RemoteCompletions } from "../../../src/repl/remote-completion.ts";
import { slashCompletion } from "../../../src/repl/slash-completion.ts";

test("Tab completes /mcp reconnect and the server after it, FAILED ones included", async () => {
  const pool = {
    status: () => [{ name: "crashy", state: "failed" }, { name: "echo", state: "connected" }] as never,
    serversOffering: () => [],
  };
  const complete = createCompleter([slashCompletion({ pool, remote: new RemoteCompletions() })]);
  expect(await complete("/mcp rec")).toEqual([["reconnect"], "rec"]);
  expect(await complete("/mcp reconnect ")).toEqual([["crashy", "echo"], ""]);
  expect(await complete("/mcp reconnect cr")).toEqual([["crashy"], "cr"]);
});
