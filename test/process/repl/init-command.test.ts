import { expect, test } from "bun:test";
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/** /init: the model is asked to write AGENTS.md (the write is approved as any other); an existing one is kept unless the user says yes. */
const repl = replUnderTest();

test("/init sends the instruction prompt; the model's write_file, approved, makes AGENTS.md; a second /init asks before replacing it", async () => {
  const cwd = realpathSync(repl.tempDir("cat-code-init-"));
  const path = join(cwd, "AGENTS.md");
  const standIn = repl.startStandIn([reply(toolUse("write_file", { path, content: "# AGENTS.md\nRun `make test`.\n" })), reply(text("Wrote AGENTS.md."))]);
  const cli = repl.piped({ cwd });
  cli.send("/init");
  await cli.waitFor("Allow write_file?");
  cli.send("y");
  await cli.waitFor("Wrote AGENTS.md.");
  expect(readFileSync(path, "utf8")).toBe("# AGENTS.md\nRun `make test`.\n");
  const asked = JSON.stringify(standIn.requests[0]!.body.messages[0]);
  expect(asked).toContain(`create an AGENTS.md file at ${path}`);
  expect(asked).toContain("run a single test");

  cli.send("/init");
  await cli.waitFor("Have the model rewrite it? [y/N]");
  cli.send("n");
  await cli.waitFor("(AGENTS.md is left as it is)");
  cli.end();
  expect(await cli.exited).toBe(0);
  expect(standIn.requests).toHaveLength(2);
});
