import { afterEach, test } from "bun:test";
import { join } from "node:path";
import { spawnOAuthServer, type OAuthServerProcess } from "../../helpers/oauth-server-process.ts";
import { tempDir, writeConfig } from "../../helpers/paths.ts";
import { childEnv } from "../../helpers/cli-process.ts";
import { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { catCode } from "../../helpers/binary.ts";

/** `/mcp login` in a real terminal: Esc gives up waiting for the browser and the prompt comes back. */
let fixture: OAuthServerProcess | undefined;
let terminal: PtyTerminal | undefined;
afterEach(async () => {
  terminal?.kill();
  terminal = undefined;
  await fixture?.stop();
  fixture = undefined;
});

for (const [key, name] of [["Escape", "Esc"], ["C-c", "Ctrl-C"]] as const) {
  test(`${name} while waiting for the browser cancels the sign-in, and the REPL goes on`, async () => {
    fixture = await spawnOAuthServer();
    const dir = tempDir("cat-code-pty-login-");
    const config = writeConfig({ linear: { type: "http", url: fixture.mcpUrl } }, dir);
    terminal = new PtyTerminal();
    terminal.start([...catCode(), "--mcp-config", config], { cwd: dir, env: childEnv(join(dir, "home"), { BROWSER: "/bin/false" }) });
    await terminal.waitForText("1 server needs sign-in: /mcp login linear", 20_000);
    terminal.type("/mcp login linear");
    await terminal.waitForText("Sign in to linear in your browser: ");
    terminal.send(key);
    await terminal.waitForText("signing in to 'linear' failed: the sign-in was cancelled");
    terminal.type("/mcp");
    await terminal.waitForText("run: /mcp login linear");
    terminal.type("/exit");
    await terminal.waitForText("[exit 0]");
  }, 40_000);
}
