import { expect, test } from "bun:test";
import { join } from "node:path";
import { reply, text } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { tempDir } from "../../helpers/paths.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

const repl = replUnderTest();

test("piped, the answer is the model's text as it is: Markdown not rendered, no escape sequence, no status line", async () => {
  const answer = "## Results\n\nThe **build** passed.\n\n| test | time |\n|---|---|\n| unit | 2 s |\n";
  repl.startStandIn([reply(text(answer))]);
  const dir = tempDir();
  // NO_COLOR unset: being piped is enough.
  const cli = repl.piped({ cwd: dir, home: join(dir, "home"), configDir: dir, noColor: false });
  await cli.waitFor("> ");
  cli.send("report");
  const at = await cli.waitFor("| unit | 2 s |\n");
  expect(cli.output).toContain(answer);
  expect(cli.output).not.toMatch(/\u001b|\r/);
  expect(cli.output.slice(0, at)).not.toContain("thinking");
});
