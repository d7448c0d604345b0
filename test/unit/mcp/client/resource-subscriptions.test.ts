/**
 * The modern subscription bookkeeping on its own, with a host standing in for the client: when a
 * subscription holds (the acknowledgement of the new listen stream names the URI), and when it
 * fails (left out of the acknowledgement, refused, never acknowledged). Time is a fake clock.
 */
import { describe, expect, test } from "bun:test";
import { ResourceSubscriptions } from "../../../../src/mcp/client/resource-subscriptions.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import type { SubscriptionFilter } from "../../../../src/mcp/stateless-protocol.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

type Listen = { id: number; filter: SubscriptionFilter; signal: AbortSignal; fail(error: Error): void };

function modernHost(clock = new FakeClock()) {
  const listens: Listen[] = [];
  let nextId = 1;
  const requests: string[] = [];
  const subscriptions = new ResourceSubscriptions({
    era: () => "modern",
    request: async (method) => void requests.push(method),
    listen: (filter, signal, registered) => {
      const id = nextId++;
      registered(id);
      return new Promise((_, reject) => {
        listens.push({ id, filter, signal, fail: reject });
        signal.addEventListener("abort", () => reject(McpError.cancelled("subscriptions/listen")), { once: true });
      });
    },
    timeoutMs: 5000,
    clock,
    description: "test",
  });
  const acknowledge = (listen: Listen, honoured: SubscriptionFilter = listen.filter) =>
    subscriptions.heard({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: honoured, _meta: { "io.modelcontextprotocol/subscriptionId": listen.id } },
    });
  return { subscriptions, listens, requests, acknowledge, clock };
}

describe("ResourceSubscriptions (modern)", () => {
  test("a subscription holds once the new stream's acknowledgement names it; the old stream is closed", async () => {
    const { subscriptions, listens, acknowledge, requests } = modernHost();
    subscriptions.watchLists({ toolsListChanged: true, promptsListChanged: false });
    await waitFor(() => listens.length === 1, "the first listen");
    expect(listens[0]!.filter).toEqual({ toolsListChanged: true });
    const subscribed = subscriptions.subscribe("file:///a", {});
    await waitFor(() => listens.length === 2, "the second listen");
    expect(listens[0]!.signal.aborted).toBe(true);
    expect(listens[1]!.filter).toEqual({ toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
    // An acknowledgement of the old stream does not count.
    acknowledge(listens[0]!, listens[1]!.filter);
    acknowledge(listens[1]!);
    await subscribed;
    expect(requests).toEqual([]);
  });

  test("an acknowledgement that leaves the URI out is an error, and the URI is not kept", async () => {
    const { subscriptions, listens, acknowledge } = modernHost();
    const subscribed = subscriptions.subscribe("file:///a", {});
    await waitFor(() => listens.length === 1, "the listen");
    acknowledge(listens[0]!, {});
    await expect(subscribed).rejects.toThrow("the server did not take the subscription to file:///a (its acknowledgement leaves it out)");
    const again = subscriptions.subscribe("file:///b", {});
    await waitFor(() => listens.length === 2, "the next listen");
    expect(listens[1]!.filter).toEqual({ resourceSubscriptions: ["file:///b"] });
    acknowledge(listens[1]!);
    await again;
  });

  test("a refused listen request fails the subscription with the server's error", async () => {
    const { subscriptions, listens } = modernHost();
    const subscribed = subscriptions.subscribe("file:///a", {});
    await waitFor(() => listens.length === 1, "the listen");
    listens[0]!.fail(new McpError(-32602, "no subscriptions here"));
    await expect(subscribed).rejects.toThrow("no subscriptions here");
  });

  test("a stream never acknowledged times out with the client's timeout", async () => {
    const { subscriptions, listens, clock } = modernHost();
    let settled = false;
    const subscribed = subscriptions.subscribe("file:///a", {}).catch((e: unknown) => e).finally(() => (settled = true));
    await waitFor(() => listens.length === 1, "the listen");
    clock.advance(4999);
    // One turn of the event loop lets a settled promise say so.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    clock.advance(1);
    const error = (await subscribed) as McpError;
    expect(error.isTimeout).toBe(true);
    expect(error.message).toBe("subscriptions/listen timed out after 5000 ms");
  });

  test("unsubscribing the last URI with no lists to watch ends listening", async () => {
    const { subscriptions, listens, acknowledge } = modernHost();
    const subscribed = subscriptions.subscribe("file:///a", {});
    await waitFor(() => listens.length === 1, "the listen");
    acknowledge(listens[0]!);
    await subscribed;
    await subscriptions.unsubscribe("file:///a", {});
    expect(listens[0]!.signal.aborted).toBe(true);
    expect(listens).toHaveLength(1);
  });
});

test("legacy: one resources/subscribe or unsubscribe request per call, no listen stream", async () => {
  const requests: string[] = [];
  const subscriptions = new ResourceSubscriptions({
    era: () => "legacy",
    request: async (method, params) => void requests.push(`${method} ${params.uri}`),
    listen: () => Promise.reject(new Error("no listen in the legacy era")),
    timeoutMs: 5000,
    clock: new FakeClock(),
    description: "test",
  });
  await subscriptions.subscribe("file:///a", {});
  await subscriptions.unsubscribe("file:///a", {});
  expect(requests).toEqual(["resources/subscribe file:///a", "resources/unsubscribe file:///a"]);
});
