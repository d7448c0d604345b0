/**
 * Issue 31, resource subscriptions and list changes through `cat-code mcp serve` (the compiled
 * binary, stdio), as the SDK v1 client sees them: its `resources/subscribe` reaches the server
 * behind (here a 2026-07-28 server, which hears it as a `subscriptions/listen` filter), the
 * server's `notifications/resources/updated` and `resources/list_changed` come back to it, and
 * after `resources/unsubscribe` the updates stop.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { compiledBinary } from "../../helpers/binary.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { BUN, MODERN_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";

const README = "modern://notes/readme";
let client: ClientV1;
const heard: string[] = [];

beforeAll(async () => {
  const binary = await compiledBinary();
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
