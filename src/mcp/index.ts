/**
 * src/mcp's front door: what the layers above (cli, repl, keeper, terminal) may use of MCP, and
 * nothing more. They import from here, from config/* (mcp.json, settings files) and protocol.ts
 * (wire types); test/unit/structure/layers.test.ts holds them to it. Importing this file evaluates all
 * of src/mcp: the values the commands a keeper serves need also come through two light sides,
 * light-index.ts and text-index.ts, so that those commands do not load the pool.
 */

// Light values: errors, roots, the debug line of a server log message, line framing, JSON-RPC.
export { McpError, MCP_ERROR_KINDS, isCancellation, RootsProvider, serverLogDebugLine, TextLineSplitter, parseMessage, JsonRpcConnection, replyTo, LoggingLevel } from "./light-index.ts";
// Light values: tool results, tool listings and server log levels as text.
export { flattenContent, formatBytes, describeTool, assignToolNames, atLeast } from "./text-index.ts";

// The pool: every configured server, connected in parallel, its tools in one registry.
export { ServerPool } from "./pool/server-pool.ts";
// One configured server's connection (the keeper holds one per warm connection).
export { ServerConnection } from "./pool/server-connection.ts";
export { EraMemoryHandles } from "./pool/era-memory-handles.ts";
export type { ServerPoolOptions } from "./pool/server-pool-options.ts";
// Server statuses (data, not exceptions) and the events a pool emits as they change.
export type { ServerStatus } from "./pool/server-status.ts";
export type { ServerEvent } from "./pool/server-events.ts";

// One server's client: resources, prompts, completions, and what it offers.
export type { McpClient, ServerFeature } from "./client/mcp-client.ts";
export type { ProgressUpdate } from "./client/progress.ts";
export type { ServerLogEntry } from "./client/server-log.ts";

// Tools: one remote tool as a local Tool, its mcp__<server>__<tool> name, and the resource tools.
export { McpToolAdapter } from "./tools/mcp-tool-adapter.ts";
export { namespacedToolName, stableHash, withSuffix } from "./tools/tool-names.ts";
export { ListMcpResourcesTool, ReadMcpResourceTool } from "./tools/resource-tools.ts";
// Resource contents as prompt blocks, bounded.
export { DEFAULT_RESOURCE_LIMITS, contentsSize, resourceBlocks } from "./tools/resource-content.ts";

// Sign-in and sign-out (OAuth) and the credentials store they share.
export { currentIssuer, hasStoredTokens, signInToServer, type SignInOutcome } from "./pool/server-sign-in.ts";
export type { SignInInteraction } from "./auth/sign-in.ts";
export { signOut, type SignOutResult } from "./auth/sign-out.ts";
export { AuthError, signInCancelled } from "./auth/auth-error.ts";
export type { AuthContext } from "./auth/server-authorizer.ts";
export { CredentialsStore } from "./auth/credentials-store.ts";

// Elicitation: a server's questions (forms, links) and the answers a front end gives.
export {
  answerWithDefaults,
  requiredWithoutDefault,
  type ElicitationHandler,
  type ElicitationRequest,
  type ElicitResult,
  type FormElicitationRequest,
  type UrlElicitationRequest,
} from "./client/elicitation.ts";
export type { ElicitContent, ElicitValue, FormField } from "./client/elicitation-form.ts";
export { answerField } from "./client/elicitation-answers.ts";

// A gateway's relay of a server's sampling and roots requests to its own client.
export type { RelayedRoot, RequestRelay, RootsRequest } from "./client/request-relay.ts";
export { checkSamplingResult, type SamplingRequest } from "./client/sampling.ts";
// What a client's `elicitation` capability allows (an empty one: form only).
export { elicitationModes } from "./client/client-capabilities.ts";

// Era memory: which protocol generation each configured server spoke, kept in $CAT_CODE_HOME.
export { EraMemory } from "./client/era-memory.ts";

// Transports, for the keeper's warm connections (which build them before the pool adopts them).
export { createTransport, type TransportContext } from "./transport/create-transport.ts";
export type { Transport } from "./transport/transport.ts";

// The 2026-07-28 header values (Mcp-Name, Mcp-Method): what `mcp serve --http` reads back.
export { decodeHeaderValue } from "./header-value.ts";
// A tool's `x-mcp-header` markings and the `Mcp-Param-*` headers of a call: `mcp serve --http` checks a client's against them.
export { buildParamHeaders, checkParamHeaders, type ParamHeader, type ParamHeaderCheck } from "./client/mcp-param-headers.ts";
