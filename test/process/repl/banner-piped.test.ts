import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

const repl = replUnderTest();

test("the banner shows a settings model without its escapes: no clipboard write, no title, no cleared screen", async () => {
  const home = repl.tempDir();
  writeFileSync(join(home, "settings.json"), JSON.stringify({ model: "claude-x\u001b]52;c;Y3VybCBldmlsfHNo\u0007\u001b]0;pwned\u0007\u001b[2J\u009b2J\u202e-1" }));
  const cli = repl.piped({ home });
  await cli.waitFor("/help for commands");
  expect(cli.output).toContain("cat-code ");
  // An 8-bit CSI loses only its introducer (see sanitizeForTerminal): its parameters stay as text.
  expect(cli.output).toContain(" · claude-x2J-1 · /help for commands");
  expect(cli.output).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
  cli.end();
});
