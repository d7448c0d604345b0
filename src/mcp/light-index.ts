/**
 * The light half of src/mcp's front door (index.ts): the few values that the commands a keeper
 * serves (`mcp list`, `mcp tools`, `mcp call` warm) need, from modules that load neither the pool,
 * the clients, the transports nor the sign-in code. Importing index.ts would evaluate all of those
 * at start-up; a front end imports these values from here and everything else (types included,
 * which cost nothing at run time) from index.ts. index.ts re-exports them all.
 */

// Errors: one class with the JSON-RPC code; a cancellation is not a failure.
export { McpError, isCancellation } from "./mcp-error.ts";
// The folders a server may see (--root), sent with every connect.
export { RootsProvider } from "./client/roots.ts";
// Server log messages: their levels and the line --debug shows for one.
export { atLeast } from "./client/server-log.ts";
export { serverLogDebugLine } from "./client/server-log-debug.ts";
// Line framing, shared with the keeper's socket.
export { TextLineSplitter } from "./transport/text-line-splitter.ts";
// Tool results and listings as text for people.
export { flattenContent, formatBytes } from "./tools/flatten-content.ts";
export { describeTool } from "./tools/mcp-tool-adapter.ts";
export { assignToolNames } from "./tools/tool-names.ts";
