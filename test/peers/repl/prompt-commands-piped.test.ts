/**
 * A prompt command from a script (piped stdin, no terminal): the missing argument's question takes
 * the next line, as a form's would; an unknown argument is one error line and nothing is sent.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { reply, text } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { EVERYTHING_SERVER, tempDir } from "../../helpers/paths.ts";
import { waitForServers } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

const repl = replUnderTest();

test("piped: the question for a missing argument takes the next line; a wrong argument sends nothing", async () => {
  const standIn = repl.startStandIn([reply(text("Rainy in Oslo."))]);
  const dir = tempDir();
  const cli = repl.piped({ cwd: dir, home: join(dir, "home"), configDir: dir, servers: { everything: { command: "node", args: [EVERYTHING_SERVER, "stdio"] } } });
  let at = await waitForServers(cli);

  cli.send("/mcp__everything__args-prompt town=Oslo");
  at = await cli.waitFor("error: /mcp__everything__args-prompt: no argument 'town'; it takes city* state\n", at);
  cli.send("/mcp__everything__args-prompt");
  at = await cli.waitFor("city* (Name of the city): ", at);
  cli.send("Oslo");
  at = await cli.waitFor("Rainy in Oslo.", at);
  cli.end();
  expect(await cli.exited).toBe(0);
  expect(cli.output).toContain("⎿ sent prompt mcp__everything__args-prompt (1 message(s))");
  expect(standIn.requests).toHaveLength(1);
  expect(standIn.requests[0]!.body.messages.at(-1)?.content).toEqual([{ type: "text", text: "What's weather in Oslo?", cache_control: { type: "ephemeral" } }]);
}, 60_000);
