/**
 * Issue 31: `subscriptions/listen` of a 2026-07-28 client through `cat-code mcp serve` (the
 * compiled binary, stdio, raw JSON lines), in front of our 2026-07-28 fixture server: the stream is
 * acknowledged with what is honoured, then carries the list changes and resource updates asked
 * for, each tagged with the listen request's id, until the client cancels it.
 */
import { expect, test } from "bun:test";
import { catCode } from "../../helpers/binary.ts";
import { BUN, MODERN_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";
import { spawnAnnounced } from "../../helpers/listening-fixture.ts";
import { modernMeta, post, readSse, StdioPeer } from "../../helpers/raw-peers.ts";

const README = "modern://notes/readme";
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

test("a listen stream is acknowledged, carries the changes asked for under its id, and ends when cancelled", async () => {
  const config = writeConfig({ modern: { command: BUN, args: [MODERN_SERVER, "--stdio"] } });
  const peer = new StdioPeer([...catCode(), "mcp", "serve", "--mcp-config", config], { CAT_CODE_HOME: tempDir() });
  const touch = (id: number, args: object) => peer.request(id, "tools/call", { name: "modern__touch_tools", arguments: args, _meta: modernMeta() });
  try {
    const discover = await peer.request(1, "server/discover", { _meta: modernMeta() });
    expect(discover.result.capabilities).toMatchObject({ tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } });
    peer.send({
      id: "listen-1",
      method: "subscriptions/listen",
      params: { notifications: { resourcesListChanged: true, resourceSubscriptions: [README, "nowhere://x"] }, _meta: modernMeta() },
    });
    const acknowledged = await peer.next((m) => m.method === "notifications/subscriptions/acknowledged", "the acknowledgement");
    expect(acknowledged.params).toEqual({ notifications: { resourcesListChanged: true, resourceSubscriptions: [README] }, _meta: { [SUBSCRIPTION_ID]: "listen-1" } });

    await touch(2, { resource: README });
    const updated = await peer.next((m) => m.method === "notifications/resources/updated", "the resource update");
    expect(updated.params).toEqual({ uri: README, _meta: { [SUBSCRIPTION_ID]: "listen-1" } });
    await touch(3, { list: "resources" });
    await peer.next((m) => m.method === "notifications/resources/list_changed" && m.params._meta?.[SUBSCRIPTION_ID] === "listen-1", "the resource list change");
    // Not asked for: the tool list's change is not sent on this stream.
    await touch(4, {});
    expect(peer.messages.some((m) => m.method === "notifications/tools/list_changed")).toBe(false);

    peer.send({ method: "notifications/cancelled", params: { requestId: "listen-1" } });
    await peer.next((m) => m.id === "listen-1", "the listen request's end");
    const seen = peer.messages.length;
    await touch(5, { list: "resources" });
    expect(peer.messages.slice(seen).filter((m) => m.method !== undefined)).toEqual([]);
  } finally {
    await peer.close();
  }
}, 60_000);

test("over HTTP the listen request's answer is an event stream: acknowledged, then the updates asked for", async () => {
  const config = writeConfig({ modern: { command: BUN, args: [MODERN_SERVER, "--stdio"] } });
  const served = await spawnAnnounced([...catCode(), "mcp", "serve", "--http", "--mcp-config", config], {
    ready: /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\ntoken \(shown once, kept in .*\): ([0-9a-f]{64})\n/,
    stdin: "ignore",
    label: "cat-code mcp serve --http",
    env: { CAT_CODE_HOME: tempDir() },
    timeoutMs: 60_000,
  });
  const [url, token] = [served.match[1] as string, served.match[2] as string];
  const auth = { Authorization: `Bearer ${token}` };
  const closed = new AbortController();
  try {
    const params = { notifications: { resourceSubscriptions: [README] }, _meta: modernMeta() };
    const stream = await post(url, { id: 7, method: "subscriptions/listen", params }, auth, closed.signal);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    const heard = readSse(stream, (message) => message.method === "notifications/resources/updated");
    // The update is asked for until the stream carries it: the subscription upstream may not hold yet at the first touch.
    const touched = (async () => {
      for (let id = 8; !closed.signal.aborted && id < 200; id++) {
        await post(url, { id, method: "tools/call", params: { name: "modern__touch_tools", arguments: { resource: README }, _meta: modernMeta() } }, auth);
      }
    })();
    const messages = await heard;
    closed.abort();
    await touched.catch(() => {});
    expect(messages[0]).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: { resourceSubscriptions: [README] } } });
    expect(messages.at(-1)).toEqual({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: README, _meta: { [SUBSCRIPTION_ID]: 7 } } });
  } finally {
    closed.abort();
    served.child.kill("SIGTERM");
    await served.child.exited;
  }
}, 60_000);
