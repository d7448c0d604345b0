import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { compiledBinary } from "../../helpers/binary.ts";
import { BUN, REPO, tempDir, writeConfig } from "../../helpers/paths.ts";
import { PtyTerminal } from "../../helpers/pty-terminal.ts";

const RESOURCE_SERVER = join(REPO, "fixtures", "resources", "resource-server.ts");

let binary: string;
let config: string;
let terminal: PtyTerminal | undefined;
beforeAll(async () => {
  binary = await compiledBinary();
  config = writeConfig({ fx: { command: BUN, args: [RESOURCE_SERVER] } });
}, 120_000);
afterEach(() => terminal?.kill());

/** `cat-code mcp <args>` with stdout on a terminal; resolves with the screen once it exited. */
async function onTerminal(...args: string[]): Promise<string> {
  terminal = new PtyTerminal();
  terminal.start([binary, "mcp", ...args, "--mcp-config", config], {
    cwd: tempDir(),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", CAT_CODE_HOME: tempDir() },
  });
  return terminal.waitFor((screen) => /\[exit \d+\]/.test(screen), "the command to exit", 30_000);
}

describe("cat-code mcp read with stdout on a terminal", () => {
  test("a blob is refused, naming --out, and nothing of it is printed: exit 2", async () => {
    const screen = await onTerminal("read", "fx", "fixture://image/dot.png");
    // The line is longer than the terminal is wide: compare it unwrapped.
    expect(screen.replace(/\s+/g, " ")).toContain("error: 'fixture://image/dot.png' is binary (image/png, 70 B) and not printed to a terminal: use --out FILE, or redirect stdout");
    expect(screen).not.toContain("PNG");
    expect(screen).toContain("[exit 2]");
  });

  test("text from the server is sanitized: a carriage return cannot overwrite what came before", async () => {
    // The fixture greets whatever name it is given; a CR in it would move the cursor back on a raw terminal.
    const screen = await onTerminal("read", "fx", "fixture://greeting/{name}", "name=AAAA\rBB");
    expect(screen).toContain("Hello, AAAABB!");
    expect(screen).toContain("[exit 0]");
  });
});
