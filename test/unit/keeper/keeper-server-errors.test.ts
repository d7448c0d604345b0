import { expect, test } from "bun:test";
import { wireError } from "../../../src/keeper/keeper-session.ts";
import { McpError } from "../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../src/mcp/protocol.ts";

/** What a failed request carries back: enough for the command to rebuild the very same McpError. */
test("an McpError keeps its message, code and flags; nothing else rides along", () => {
  const error = new McpError(ErrorCode.InvalidRequest, "token lacks scope", { needsAuth: true, status: 403, url: "https://x.example/mcp" });
  expect(wireError(error)).toEqual({ message: "token lacks scope", code: ErrorCode.InvalidRequest, needsAuth: true });
  expect(wireError(new McpError(undefined, "resources not offered", { notOffered: true }))).toEqual({ message: "resources not offered", notOffered: true });
});

test("anything else is the keeper's own failure", () => {
  expect(wireError(new TypeError("x is undefined"))).toEqual({ message: "the keeper failed: x is undefined", keeper: true });
});
