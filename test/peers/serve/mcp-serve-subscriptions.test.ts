/**
 * Issue 31, resource subscriptions and list changes through `cat-code mcp serve` (the compiled
 * binary, stdio), as the SDK v1 client sees them: its `resources/subscribe` reaches the server
 * behind (here a 2026-07-28 server, which hears it as a `subscriptions/listen` filter), the
 * server's `notifications/resources/updated` and `resources/list_changed` come back to it, and
 * after `resources/unsubscribe` the updates stop. An upstream that crashes and is restarted is
 * subscribed again, so its client still hears of updates.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { compiledBinary } from "../../helpers/binary.ts";
import { resultText } from "../../helpers/served-http.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { BUN, MODERN_SERVER, REPO, tempDir, writeConfig } from "../../helpers/paths.ts";

const README = "modern://notes/readme";
let binary: string;
let client: ClientV1;
const heard: string[] = [];

beforeAll(async () => {
  binary = await compiledBinary();
  const config = writeConfig({ modern: { command: BUN, args: [MODERN_SERVER, "--stdio"] } });
  client = new ClientV1({ name: "sdk-v1-client", version: "1.0.0" });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => void heard.push(`updated ${notification.params.uri}`));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => void heard.push("resources list changed"));
  const env = { ...(process.env as Record<string, string>), CAT_CODE_HOME: tempDir() };
  await client.connect(new StdioV1({ command: binary, args: ["mcp", "serve", "--mcp-config", config], env, stderr: "ignore" }));
}, 120_000);
afterAll(() => client?.close());

test("mcp serve declares resource subscriptions and list changes", () => {
  expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true } });
});

test("a subscribed resource's updates come to the client, and stop once it unsubscribes", async () => {
  await client.subscribeResource({ uri: README });
  await client.callTool({ name: "modern__touch_tools", arguments: { resource: README } });
  await waitFor(() => heard.includes(`updated ${README}`), () => `an update of ${README}; heard: ${heard.join(", ")}`);
  await client.unsubscribeResource({ uri: README });
  heard.length = 0;
  await client.callTool({ name: "modern__touch_tools", arguments: { resource: README } });
  // The list change is sent after the touch on the same stream: once it is heard, an update would have been too.
  await client.callTool({ name: "modern__touch_tools", arguments: { list: "resources" } });
  await waitFor(() => heard.includes("resources list changed"), () => `the list change; heard: ${heard.join(", ")}`);
  expect(heard).not.toContain(`updated ${README}`);
});

test("subscribing to a resource no server has is an error that names it", async () => {
  await expect(client.subscribeResource({ uri: "nowhere://x" })).rejects.toThrow(/Resource not found: no connected server lists nowhere:\/\/x/);
});

describe("an upstream that crashes and is restarted", () => {
  const NOTE = "watched://note";
  const WATCHED_SERVER = join(REPO, "fixtures", "resources", "watched-server.ts");
  
  test("is subscribed again, and the client still hears of the resource's updates", async () => {
    const pidFile = join(tempDir(), "pid");
    const config = writeConfig({ watched: { command: BUN, args: [WATCHED_SERVER, pidFile] } });
    const updates: string[] = [];
    const watcher = new ClientV1({ name: "sdk-v1-client", version: "1.0.0" });
    watcher.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => void updates.push(notification.params.uri));
    const env = { ...(process.env as Record<string, string>), CAT_CODE_HOME: tempDir() };
    await watcher.connect(new StdioV1({ command: binary, args: ["mcp", "serve", "--mcp-config", config], env, stderr: "ignore" }));
    try {
      await watcher.subscribeResource({ uri: NOTE });
      expect(resultText(await watcher.callTool({ name: "watched__touch", arguments: {} }))).toBe("touched, subscribed");
      await waitFor(() => updates.includes(NOTE), "the update before the crash");
      const first = readFileSync(pidFile, "utf8");
      process.kill(Number(first), "SIGKILL");
      await waitFor(() => readFileSync(pidFile, "utf8") !== first, "the restarted server's pid");
      updates.length = 0;
      // Restarted, its tools are back before the subscription is asked again: touched until the new process holds it.
      let last = "";
      await waitFor(
        async () => (last = resultText(await watcher.callTool({ name: "watched__touch", arguments: {} }))) === "touched, subscribed",
        () => `the restarted server to hold the subscription; it said: ${last}`,
        { intervalMs: 50 },
      );
      await waitFor(() => updates.includes(NOTE), "the update after the restart");
    } finally {
      await watcher.close();
    }
  }, 60_000);
});
