/**
 * The other light side of src/mcp's front door (index.ts): tool results, tool listings and server
 * log levels as text for people, for the commands the keeper serves (`mcp call`, `mcp tools`…).
 * Apart from light-index.ts so that `mcp list`, which shows none of them, does not load them.
 * index.ts re-exports them all.
 */

// Tool results and resource sizes as text.
export { flattenContent, formatBytes } from "./tools/flatten-content.ts";
// Tool listings: a tool's description, and the mcp__<server>__<tool> names of a server's tools.
export { describeTool } from "./tools/mcp-tool-adapter.ts";
export { assignToolNames } from "./tools/tool-names.ts";
// Which server log messages a level shows.
export { atLeast } from "./client/server-log.ts";
