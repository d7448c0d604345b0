import { expect, test } from "bun:test";
import { errorFromKeeper, keeperFailure, keeperRefusal } from "../../../src/keeper/keeper-errors.ts";
import { McpError } from "../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../src/mcp/protocol.ts";

/** An error as the command's JsonRpcConnection gets it: the JSON-RPC error object the keeper wrote, rebuilt by the rpc layer. */
const acrossTheSocket = (error: McpError) => McpError.fromJsonRpc(JSON.parse(JSON.stringify({ code: error.code, message: error.message, data: error.data })));

/** What a failed request carries back: enough for the command to rebuild the very same McpError. */
test("an McpError crosses the socket with its message, code, kind, status, url and data", () => {
  const error = new McpError(ErrorCode.InvalidRequest, "token lacks scope", { kind: "needs-auth", status: 403, url: "https://x.example/mcp", data: { scope: "admin" } });
  const rebuilt = errorFromKeeper(acrossTheSocket(keeperFailure(error)));
  expect(rebuilt).toBeInstanceOf(McpError);
  expect(rebuilt).toMatchObject({ message: "token lacks scope", code: ErrorCode.InvalidRequest, kind: "needs-auth", status: 403, url: "https://x.example/mcp", data: { scope: "admin" } });
});

test("an McpError without a code is rebuilt without one (the JSON-RPC error says InternalError)", () => {
  const sent = keeperFailure(new McpError(undefined, "resources not offered", { kind: "not-offered" }));
  expect(sent.code).toBe(ErrorCode.InternalError);
  expect(errorFromKeeper(acrossTheSocket(sent))).toMatchObject({ message: "resources not offered", code: undefined, kind: "not-offered", status: undefined });
});

test("anything else is the keeper's own failure, rebuilt without a code or kind", () => {
  const sent = keeperFailure(new TypeError("x is undefined"));
  expect(sent).toMatchObject({ code: ErrorCode.InternalError, message: "the keeper failed: x is undefined", data: { keeper: true } });
  expect(errorFromKeeper(acrossTheSocket(sent))).toMatchObject({ message: "the keeper failed: x is undefined", code: undefined, kind: undefined });
  expect(keeperFailure(keeperRefusal("say hello first"))).toMatchObject({ code: ErrorCode.InvalidRequest, data: { keeper: true } });
});

test("a server's McpError whose data looks like the keeper's own is carried as the server's", () => {
  const error = new McpError(ErrorCode.InvalidParams, "bad", { data: { keeper: true } });
  expect(errorFromKeeper(acrossTheSocket(keeperFailure(error)))).toMatchObject({ code: ErrorCode.InvalidParams, data: { keeper: true } });
});

test("error data of the wrong shape is not trusted: the message says so, no field is taken", () => {
  const forged = new McpError(ErrorCode.InvalidRequest, "nope", { data: { kind: "root", status: "x" } });
  const rebuilt = errorFromKeeper(forged) as McpError;
  expect(rebuilt).toMatchObject({ code: undefined, kind: undefined, status: undefined });
  expect(rebuilt.message).toBe("nope (the connection keeper sent error data that is not its own)");
  const local = McpError.closed("the connection was closed");
  expect(errorFromKeeper(local)).toBe(local);
});
