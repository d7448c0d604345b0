import { describe, expect, test } from "bun:test";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import type { JsonRpcMessage, RequestId } from "../../../../src/mcp/protocol.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";
import { JsonRpcConnection, MAX_SERVER_REQUESTS_IN_FLIGHT } from "../../../../src/mcp/rpc/json-rpc-connection.ts";
import type { SendOptions, Transport } from "../../../../src/mcp/transport/transport.ts";
import { debugLines } from "../../../helpers/debug-lines.ts";
import { failure } from "../../../helpers/mcp-failure.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

/** A transport that records what is sent and lets the test play the server, message by message. */
class WireTransport implements Transport {
  onMessage?: (value: unknown, carrier?: RequestId) => void;
  onClose?: (error: Error) => void;
  readonly description = "wire: test";
  readonly sent: JsonRpcMessage[] = [];
  readonly options: (SendOptions | undefined)[] = [];
  closed = 0;
  /** What `send` does with a message after recording it; resolving at once by default. */
  sendResult: (message: JsonRpcMessage) => Promise<void> = async () => {};

  async start(): Promise<void> {}

  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    this.sent.push(message);
    this.options.push(options);
    return this.sendResult(message);
  }

  async close(): Promise<void> {
    this.closed++;
    this.onClose?.(McpError.closed("the connection was closed"));
  }

  /** `carrier`: as HTTP does for a message on the response stream of our request with that id. */
  deliver(value: unknown, carrier?: RequestId): void {
    this.onMessage?.(value, carrier);
  }

  /** The messages sent with this method. */
  sentWith(method: string): JsonRpcMessage[] {
    return this.sent.filter((m) => "method" in m && m.method === method);
  }

  /** The replies sent to the server's requests. */
  replies(): JsonRpcMessage[] {
    return this.sent.filter((m) => !("method" in m));
  }
}

function connected(): { wire: WireTransport; connection: JsonRpcConnection } {
  const wire = new WireTransport();
  return { wire, connection: new JsonRpcConnection(wire) };
}

describe("JsonRpcConnection: requests and answers", () => {
  test("each request gets its own numeric id and settles with the response to it, in any order", async () => {
    const { wire, connection } = connected();
    const first = connection.request("tools/list", {});
    const second = connection.request("tools/call", { name: "echo" });
    expect(wire.sent).toEqual([
      { jsonrpc: "2.0", id: 0, method: "tools/list", params: {} },
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo" } },
    ]);
    wire.deliver({ jsonrpc: "2.0", id: 1, result: "two" });
    wire.deliver({ jsonrpc: "2.0", id: 0, result: "one" });
    expect(await Promise.all([first, second])).toEqual(["one", "two"]);
    expect(connection.pendingCount).toBe(0);
  });

  test("a numeric id echoed back as a string still settles its request", async () => {
    const { wire, connection } = connected();
    const answer = connection.request("ping");
    wire.deliver({ jsonrpc: "2.0", id: "0", result: { ok: true } });
    expect(await answer).toEqual({ ok: true });
  });

  test("a JSON-RPC error rejects with the server's code, message and data", async () => {
    const { wire, connection } = connected();
    const answer = connection.request("tools/call");
    wire.deliver({ jsonrpc: "2.0", id: 0, error: { code: -32602, message: "bad arguments", data: { field: "text" } } });
    const error = await failure(answer);
    expect([error.code, error.message, error.data]).toEqual([-32602, "bad arguments", { field: "text" }]);
  });

  test("answers to unknown ids, repeated answers and messages that are not JSON-RPC are dropped; the connection lives on", async () => {
    const { wire, connection } = connected();
    const answer = connection.request("tools/call");
    wire.deliver({ jsonrpc: "2.0", id: 99, result: "not ours" });
    wire.deliver({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
    wire.deliver({ hello: "world" });
    wire.deliver("a string");
    wire.deliver({ jsonrpc: "2.0", id: 0, result: "ours" });
    wire.deliver({ jsonrpc: "2.0", id: 0, result: "again" });
    expect(await answer).toBe("ours");
    const later = connection.request("ping");
    wire.deliver({ jsonrpc: "2.0", id: 1, result: {} });
    expect(await later).toEqual({});
  });

  test("an error with id null (the peer could not read a message) fails no request and is logged with its message", async () => {
    const { wire, connection } = connected();
    const answer = connection.request("tools/call");
    const lines = await debugLines(() => wire.deliver({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: unexpected token" } }));
    expect(lines).toEqual(["wire: test: dropped an error for no request (Parse error: unexpected token)"]);
    expect(connection.pendingCount).toBe(1);
    wire.deliver({ jsonrpc: "2.0", id: 0, result: "ours" });
    expect(await answer).toBe("ours");
  });

  test("a send that fails fails its request with the transport's error", async () => {
    const { wire, connection } = connected();
    wire.sendResult = async () => {
      throw new McpError(undefined, "the server at http://127.0.0.1/mcp answered 500");
    };
    await expect(connection.request("tools/call")).rejects.toThrow("answered 500");
    expect(connection.pendingCount).toBe(0);
  });

  test("the per-message signal and headers reach the transport", () => {
    const { wire, connection } = connected();
    const signal = new AbortController().signal;
    void connection.request("tools/call", {}, { signal, headers: { "Mcp-Name": "echo" } });
    expect(wire.options[0]).toEqual({ signal, headers: { "Mcp-Name": "echo" } });
  });
});

describe("JsonRpcConnection: what the server sends of its own accord", () => {
  test("a server request is answered with the handler's result, under the server's id", async () => {
    const { wire, connection } = connected();
    connection.onRequest = (request) => ({ echoed: request.params });
    wire.deliver({ jsonrpc: "2.0", id: "srv-1", method: "roots/list", params: { x: 1 } });
    const [reply] = await waitFor(() => wire.replies().length === 1 && wire.replies(), "the reply");
    expect(reply).toEqual({ jsonrpc: "2.0", id: "srv-1", result: { echoed: { x: 1 } } });
  });

  test("a server request on our request's own exchange is handed that request's call; one elsewhere, none", async () => {
    const { wire, connection } = connected();
    const calls: Array<AbortSignal | undefined> = [];
    connection.onRequest = (_request, context) => void calls.push(context.call);
    const call = new AbortController().signal;
    void connection.request("tools/call", { name: "ask" }, { call });
    void connection.request("tools/call", { name: "other" });
    wire.deliver({ jsonrpc: "2.0", id: "q1", method: "elicitation/create", params: {} }, 0);
    wire.deliver({ jsonrpc: "2.0", id: "q2", method: "elicitation/create", params: {} }, 1);
    wire.deliver({ jsonrpc: "2.0", id: "q3", method: "elicitation/create", params: {} });
    wire.deliver({ jsonrpc: "2.0", id: "q4", method: "elicitation/create", params: {} }, 99);
    await waitFor(() => wire.replies().length === 4, "the four replies");
    expect(calls).toEqual([call, undefined, undefined, undefined]);
  });

  test("a handler's McpError becomes its code and data; any other throw -32603; no handler at all -32601", async () => {
    const { wire, connection } = connected();
    wire.deliver({ jsonrpc: "2.0", id: 1, method: "sampling/createMessage" });
    connection.onRequest = (request) => {
      if (request.method === "elicitation/create") throw new McpError(-32602, "no forms here");
      if (request.method === "keeper/call") throw new McpError(-32001, "timed out", { data: { kind: "unreachable" } });
      throw new Error("boom");
    };
    wire.deliver({ jsonrpc: "2.0", id: 2, method: "elicitation/create" });
    wire.deliver({ jsonrpc: "2.0", id: 3, method: "roots/list" });
    wire.deliver({ jsonrpc: "2.0", id: 4, method: "keeper/call" });
    const replies = await waitFor(() => wire.replies().length === 4 && wire.replies(), "four replies");
    const byId = Object.fromEntries(replies.map((r) => [String((r as { id: unknown }).id), (r as { error: unknown }).error]));
    expect(byId).toEqual({
      "1": { code: ErrorCode.MethodNotFound, message: "Method not found: sampling/createMessage" },
      "2": { code: -32602, message: "no forms here" },
      "3": { code: ErrorCode.InternalError, message: "boom" },
      "4": { code: -32001, message: "timed out", data: { kind: "unreachable" } },
    });
  });

  test("notifications reach the handler; one that throws is only logged, and what follows still flows", async () => {
    const { wire, connection } = connected();
    const seen: string[] = [];
    connection.onNotification = (notification) => {
      seen.push(notification.method);
      if (notification.method === "notifications/bad") throw new Error("handler bug");
    };
    const answer = connection.request("ping");
    wire.deliver({ jsonrpc: "2.0", method: "notifications/bad" });
    wire.deliver({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } });
    wire.deliver({ jsonrpc: "2.0", id: 0, result: {} });
    expect(await answer).toEqual({});
    expect(seen).toEqual(["notifications/bad", "notifications/progress"]);
  });

  test(`more than ${MAX_SERVER_REQUESTS_IN_FLIGHT} server requests whose replies are never taken end the connection`, async () => {
    const { wire, connection } = connected();
    const closes: Error[] = [];
    connection.onClose = (error) => closes.push(error);
    // The server takes no reply: each stays in flight.
    wire.sendResult = (message) => ("method" in message ? Promise.resolve() : new Promise<void>(() => {}));
    const call = connection.request("tools/call");
    for (let i = 0; i < MAX_SERVER_REQUESTS_IN_FLIGHT; i++) wire.deliver({ jsonrpc: "2.0", id: `p${i}`, method: "ping" });
    await waitFor(() => wire.replies().length === MAX_SERVER_REQUESTS_IN_FLIGHT, "every reply to be sent");
    expect(wire.closed).toBe(0);
    wire.deliver({ jsonrpc: "2.0", id: "one-too-many", method: "ping" });
    const message = `the server sent more than ${MAX_SERVER_REQUESTS_IN_FLIGHT} requests without reading the replies; the connection was closed`;
    expect((await failure(call)).message).toBe(message);
    expect(closes.map((e) => e.message)).toEqual([message]);
    expect(wire.closed).toBe(1);
    await expect(connection.request("ping")).rejects.toThrow(message);
  });

  test("replies that are taken free their place: a steady stream of pings never ends the connection", async () => {
    const { wire, connection } = connected();
    for (let i = 0; i < MAX_SERVER_REQUESTS_IN_FLIGHT * 2; i++) {
      wire.deliver({ jsonrpc: "2.0", id: i, method: "ping" });
      if (i % 1000 === 999) await waitFor(() => wire.replies().length === i + 1, "the replies so far");
    }
    await waitFor(() => wire.replies().length === MAX_SERVER_REQUESTS_IN_FLIGHT * 2, "every reply");
    expect(wire.closed).toBe(0);
    const answer = connection.request("ping");
    wire.deliver({ jsonrpc: "2.0", id: 0, result: {} });
    expect(await answer).toEqual({});
  });
});

describe("JsonRpcConnection: cancellation", () => {
  test("an aborted request rejects at once with the reason and the server is told notifications/cancelled", async () => {
    const { wire, connection } = connected();
    const controller = new AbortController();
    const answer = connection.request("tools/call", {}, { signal: controller.signal });
    controller.abort(new Error("gave up"));
    await expect(answer).rejects.toThrow("gave up");
    expect(wire.sentWith("notifications/cancelled")).toEqual([
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0, reason: "gave up" } },
    ]);
    // A late answer to it is dropped.
    wire.deliver({ jsonrpc: "2.0", id: 0, result: "late" });
    expect(connection.pendingCount).toBe(0);
  });

  test("a late answer to a request given up is passed to onStrayAnswer (the era probe's may be news), and settles nothing", async () => {
    const { wire, connection } = connected();
    const stray: unknown[] = [];
    connection.onStrayAnswer = (response) => stray.push(response);
    const controller = new AbortController();
    const answer = connection.request("server/discover", {}, { signal: controller.signal });
    controller.abort(new Error("the window passed"));
    await expect(answer).rejects.toThrow("the window passed");
    wire.deliver({ jsonrpc: "2.0", id: 0, result: { late: true } });
    expect(stray).toEqual([{ jsonrpc: "2.0", id: 0, result: { late: true } }]);
    expect(connection.pendingCount).toBe(0);
  });

  test("an aborted initialize is never cancelled", async () => {
    const { wire, connection } = connected();
    const controller = new AbortController();
    const answer = connection.request("initialize", {}, { signal: controller.signal });
    controller.abort(new Error("initialize timed out"));
    await expect(answer).rejects.toThrow("initialize timed out");
    expect(wire.sentWith("notifications/cancelled")).toEqual([]);
  });

  test("with cancellation by notification switched off, an abort sends nothing", async () => {
    const { wire, connection } = connected();
    connection.sendsCancellation = false;
    const controller = new AbortController();
    const answer = connection.request("tools/call", {}, { signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(answer).rejects.toThrow("stop");
    expect(wire.sent.map((m) => ("method" in m ? m.method : "reply"))).toEqual(["tools/call"]);
  });

  test("a request whose signal had already aborted is not sent at all", async () => {
    const { wire, connection } = connected();
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(connection.request("tools/call", {}, { signal: controller.signal })).rejects.toThrow("stop");
    expect(wire.sent).toEqual([]);
  });
});

/** A handler that holds every request until its signal aborts, then answers with the abort's reason; it keeps the signals by request id. */
function holdingHandler(connection: JsonRpcConnection): Map<unknown, AbortSignal> {
  const signals = new Map<unknown, AbortSignal>();
  connection.onRequest = (request, { signal }) => {
    signals.set(request.id, signal);
    return new Promise((resolve) => signal.addEventListener("abort", () => resolve({ gaveUp: (signal.reason as Error).message })));
  };
  return signals;
}

describe("JsonRpcConnection: the server cancelling its own requests", () => {
  test("notifications/cancelled aborts the signal of the request it names, which is still answered; onNotification hears it too", async () => {
    const { wire, connection } = connected();
    const signals = holdingHandler(connection);
    const heard: string[] = [];
    connection.onNotification = (notification) => heard.push(notification.method);
    wire.deliver({ jsonrpc: "2.0", id: 7, method: "elicitation/create", params: {} });
    wire.deliver({ jsonrpc: "2.0", id: 8, method: "elicitation/create", params: {} });
    expect(signals.size).toBe(2);
    wire.deliver({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "tool cancelled" } });
    expect([signals.get(7)!.aborted, signals.get(8)!.aborted]).toEqual([true, false]);
    const [reply] = await waitFor(() => wire.replies().length === 1 && wire.replies(), "the cancelled request's reply");
    expect(reply).toEqual({ jsonrpc: "2.0", id: 7, result: { gaveUp: "the server cancelled its request" } });
    expect(heard).toEqual(["notifications/cancelled"]);
  });

  test("a string id names its request, and only it: the number with the same digits is another request", async () => {
    const { wire, connection } = connected();
    const signals = holdingHandler(connection);
    wire.deliver({ jsonrpc: "2.0", id: "s-1", method: "elicitation/create", params: {} });
    wire.deliver({ jsonrpc: "2.0", id: "2", method: "elicitation/create", params: {} });
    wire.deliver({ jsonrpc: "2.0", id: 2, method: "elicitation/create", params: {} });
    wire.deliver({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "s-1" } });
    wire.deliver({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "2" } });
    expect([...signals.values()].map((signal) => signal.aborted)).toEqual([true, true, false]);
  });

  test("a handler that asks for its signal only after the cancellation finds it aborted", async () => {
    const { wire, connection } = connected();
    let later: (() => void) | undefined;
    connection.onRequest = (_request, context) => new Promise((resolve) => (later = () => resolve({ aborted: context.signal.aborted })));
    wire.deliver({ jsonrpc: "2.0", id: 3, method: "elicitation/create", params: {} });
    wire.deliver({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } });
    later!();
    const [reply] = await waitFor(() => wire.replies().length === 1 && wire.replies(), "the reply");
    expect(reply).toEqual({ jsonrpc: "2.0", id: 3, result: { aborted: true } });
  });

  test("an unknown id, an answered request's id and a malformed notification abort nothing", async () => {
    const { wire, connection } = connected();
    const signals = new Map<unknown, AbortSignal>();
    connection.onRequest = (request, { signal }) => {
      signals.set(request.id, signal);
      return request.id === 1 ? {} : new Promise(() => {});
    };
    wire.deliver({ jsonrpc: "2.0", id: 1, method: "ping" });
    await waitFor(() => wire.replies().length === 1, "the ping's reply");
    wire.deliver({ jsonrpc: "2.0", id: 2, method: "elicitation/create", params: {} });
    for (const params of [{ requestId: 99 }, { requestId: 1 }, { requestId: { id: 2 } }, { requestId: null }, {}, undefined, [2]]) {
      wire.deliver({ jsonrpc: "2.0", method: "notifications/cancelled", ...(params === undefined ? {} : { params }) });
    }
    expect([signals.get(1)!.aborted, signals.get(2)!.aborted]).toEqual([false, false]);
  });

  test("the connection's end aborts every request being answered, with the end's reason; so does close()", async () => {
    const ended = connected();
    const signals = holdingHandler(ended.connection);
    ended.wire.deliver({ jsonrpc: "2.0", id: 1, method: "elicitation/create", params: {} });
    ended.wire.deliver({ jsonrpc: "2.0", id: "two", method: "sampling/createMessage", params: {} });
    ended.wire.onClose?.(McpError.closed("the server exited with code 3"));
    expect([...signals.values()].map((signal) => (signal.reason as Error | undefined)?.message)).toEqual([
      "the server exited with code 3",
      "the server exited with code 3",
    ]);

    const closed = connected();
    const closedSignals = holdingHandler(closed.connection);
    closed.wire.deliver({ jsonrpc: "2.0", id: 1, method: "elicitation/create", params: {} });
    await closed.connection.close();
    expect(closedSignals.get(1)!.aborted).toBe(true);
  });
});

describe("JsonRpcConnection: the end", () => {
  test("the transport's end fails every pending request and every later one with its reason, reported once", async () => {
    const { wire, connection } = connected();
    const closes: string[] = [];
    connection.onClose = (error) => closes.push(error.message);
    const pending = [connection.request("tools/call"), connection.request("tools/list")];
    wire.onClose?.(McpError.closed("the server exited with code 3"));
    wire.onClose?.(McpError.closed("a second report"));
    for (const answer of pending) expect((await failure(answer)).message).toBe("the server exited with code 3");
    await expect(connection.request("ping")).rejects.toThrow("the server exited with code 3");
    await expect(connection.notify("notifications/initialized")).rejects.toThrow("the server exited with code 3");
    expect(closes).toEqual(["the server exited with code 3"]);
  });

  test("close() fails what is pending and closes the transport, without reporting an end of its own", async () => {
    const { wire, connection } = connected();
    const closes: string[] = [];
    connection.onClose = (error) => closes.push(error.message);
    const controller = new AbortController();
    const pending = connection.request("tools/call", {}, { signal: controller.signal });
    await Promise.all([connection.close(), connection.close()]);
    expect((await failure(pending)).message).toBe("the connection was closed");
    // Given up after the end: nothing more is sent.
    controller.abort();
    expect(wire.sentWith("notifications/cancelled")).toEqual([]);
    expect(wire.closed).toBe(2);
    expect(closes).toEqual([]);
  });
});
