/**
 * The light side of src/mcp's front door (index.ts), for a command the keeper serves: what it
 * needs to talk to the keeper, from modules that `mcp list` loads anyway. Importing index.ts would
 * evaluate the pool, the clients, the transports and the sign-in code at start-up; a file whose
 * values all come from here or text-index.ts imports them from there, and its types (which cost
 * nothing at run time) from index.ts. index.ts re-exports them all.
 */

// Errors: one class with the JSON-RPC code; a cancellation is not a failure.
export { McpError, MCP_ERROR_KINDS, isCancellation } from "./mcp-error.ts";
// The folders a server may see (--root), sent with every connect.
export { RootsProvider } from "./client/roots.ts";
// The line --debug shows for a server's log message.
export { serverLogDebugLine } from "./client/server-log-debug.ts";
// Line framing, shared with the keeper's socket.
export { TextLineSplitter } from "./transport/text-line-splitter.ts";
export { parseMessage } from "./transport/parse-message.ts";
// JSON-RPC over any transport: the keeper's socket speaks it too.
export { JsonRpcConnection, type ServerRequestContext } from "./rpc/json-rpc-connection.ts";
export { replyTo } from "./rpc/rpc-reply.ts";
// A server log message's level, as a schema (the keeper's wire carries it).
export { LoggingLevel } from "./logging-level.ts";
