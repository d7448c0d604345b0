import type { ToolProgress } from "../../agent/tool.ts";
import type { AuthContext, RootsProvider, ServerLogEntry, ServerStatus } from "../../mcp/index.ts";
import type { CallToolResult } from "../../mcp/protocol.ts";
import type { ServerSourceOptions } from "./server-selection.ts";

/**
 * How `mcp call | tools | list` reach their servers: connected by the command itself (cold, today's
 * pool) or held warm by the connection keeper. The command renders both alike, so a warm call prints
 * the same bytes and exits with the same code as a cold one.
 */
export interface ServerAccess {
  /** Connects every usable server (in parallel). Never rejects: a failure is in the status. */
  connectAll(): Promise<void>;
  /** One per entry given, in that order, as the pool gives them. */
  status(): ServerStatus[];
  /**
   * Checks the arguments against the tool's input schema first (checkArguments: a usage `CliError`,
   * nothing sent); cold here, warm in the keeper, so a warm command loads no validator. Then rejects
   * with an `McpError` (code, message and kind kept), as a client's `callTool` does.
   */
  call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options?: { onProgress?: (update: ToolProgress) => void; signal?: AbortSignal },
  ): Promise<CallToolResult>;
  /** Closes (cold) or lets go of (warm) every server. Safe to call twice. */
  closeAll(): Promise<void>;
}

export interface ServerAccessOptions {
  roots: RootsProvider;
  /** Where the servers came from (the sign-in hint names it). */
  source: ServerSourceOptions;
  /** OAuth after `--login` signed in first; absent: the stored tokens only (cliAuth). */
  auth?: AuthContext;
  /** What the servers' questions get; absent: the servers are told nobody answers them (list, tools). */
  elicitation?: "decline" | "accept-defaults";
  /** A declined question's line, already sanitized. */
  onNote?: (line: string) => void;
  onServerLog?: (entry: ServerLogEntry) => void;
  /** `--no-keeper`, or `--login` (a sign-in wants this process's browser and terminal): today's way. */
  cold?: boolean;
  /** The tool `mcp call` calls: the keeper's answer lists only that one (cold, the pool lists all). */
  tool?: string;
  /** `--keep-alive`, parsed (parseKeepAlive): seconds the keeper keeps these servers without use. */
  keepAlive?: number;
  /**
   * The call `mcp call` makes next, known before any server answers: warm, it goes to the keeper
   * right behind the connect (one round trip less), and `call` with this server and tool takes its
   * answer. Cold, unused. Either the arguments (--json) or the key=value words the keeper converts.
   */
  ahead?: { server: string; tool: string; arguments?: Record<string, unknown>; pairs?: string[]; onProgress?: (update: ToolProgress) => void };
}
