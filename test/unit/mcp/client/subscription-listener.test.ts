import { expect, test } from "bun:test";
import { HEALTHY_LISTEN_MS, LISTEN_BACKOFF_MS, SubscriptionListener } from "../../../../src/mcp/client/subscription-listener.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

/** A listen function whose every request the test ends by hand. */
function scriptedListen() {
  const calls: { signal: AbortSignal; end: (error?: Error) => void }[] = [];
  const listen = (signal: AbortSignal) =>
    new Promise<unknown>((resolve, reject) => {
      calls.push({ signal, end: (error) => (error ? reject(error) : resolve({})) });
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  return { calls, listen };
}

const lost = () => new McpError(ErrorCode.ConnectionClosed, "the server ended the stream", { kind: "stream-lost" });

test("a listen stream that ends is opened again after the backoff, not before", async () => {
  const clock = new FakeClock();
  const { calls, listen } = scriptedListen();
  const listener = new SubscriptionListener(listen, "test", clock);
  listener.start();
  expect(calls).toHaveLength(1);
  calls[0]!.end(lost());
  await waitFor(() => clock.pending() === 1, "the backoff timer");
  clock.advance(LISTEN_BACKOFF_MS[0] - 1);
  expect(calls).toHaveLength(1);
  clock.advance(1);
  await waitFor(() => calls.length === 2, "the second listen");
  listener.stop();
  await listener.done;
});

test(`it gives up after ${LISTEN_BACKOFF_MS.length} failures in a row`, async () => {
  const clock = new FakeClock();
  const { calls, listen } = scriptedListen();
  const listener = new SubscriptionListener(listen, "test", clock);
  listener.start();
  for (let failure = 0; failure <= LISTEN_BACKOFF_MS.length; failure++) {
    await waitFor(() => calls.length === failure + 1, `listen number ${failure + 1}`);
    calls[failure]!.end(lost());
    if (failure === LISTEN_BACKOFF_MS.length) break;
    await waitFor(() => clock.pending() === 1, "the backoff timer");
    clock.advance(LISTEN_BACKOFF_MS[failure] ?? 0);
  }
  await listener.done;
  expect(calls).toHaveLength(LISTEN_BACKOFF_MS.length + 1);
});

test("a stream that lasted long forgives the failures before it", async () => {
  const clock = new FakeClock();
  const { calls, listen } = scriptedListen();
  const listener = new SubscriptionListener(listen, "test", clock);
  listener.start();
  calls[0]!.end(lost());
  await waitFor(() => clock.pending() === 1, "the backoff timer");
  clock.advance(LISTEN_BACKOFF_MS[0]);
  await waitFor(() => calls.length === 2, "the second listen");
  clock.advance(HEALTHY_LISTEN_MS);
  calls[1]!.end();
  await waitFor(() => clock.pending() === 1, "the backoff timer");
  // Back to the first, shortest wait.
  clock.advance(LISTEN_BACKOFF_MS[0]);
  await waitFor(() => calls.length === 3, "the third listen, after the shortest wait");
  listener.stop();
  await listener.done;
});

test("a refusal from the server (an error response) is final", async () => {
  const { calls, listen } = scriptedListen();
  const listener = new SubscriptionListener(listen, "test", new FakeClock());
  listener.start();
  calls[0]!.end(new McpError(ErrorCode.MethodNotFound, "Method not found", { status: 404 }));
  await listener.done;
  expect(calls).toHaveLength(1);
});

test("stop aborts the open request and ends the loop", async () => {
  const { calls, listen } = scriptedListen();
  const listener = new SubscriptionListener(listen, "test", new FakeClock());
  listener.start();
  listener.stop();
  await listener.done;
  expect(calls[0]!.signal.aborted).toBe(true);
  expect(calls).toHaveLength(1);
});
