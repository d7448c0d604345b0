import { log } from "../../log.ts";
import { McpError } from "../mcp-error.ts";
import { CallToolResult, type ToolDefinition } from "../protocol.ts";
import { ModernErrorCode, type ProgressToken } from "../stateless-protocol.ts";
import { CachedList } from "./cached-list.ts";
import type { CallOptions, RequestOptions } from "./client-options.ts";
import { fetchAllPages } from "./paged-list.ts";
import { parseResult } from "./parse-result.ts";
import type { ProgressTracker } from "./progress.ts";
import { CallProgress } from "./request-timeout.ts";
import { checkToolDefinitions, type RejectedTool } from "./tool-definitions.ts";
import { ToolParamMarks } from "./tool-param-marks.ts";

/** What the tools need of their client. */
export interface ToolsHost {
  /** A request of the client's (its timeout, its era). */
  request(method: string, params: Record<string, unknown>, options: RequestOptions): Promise<unknown>;
  /** A request a 2026-07-28 server may answer "input required" (the era decides: EraStrategy.sendAnswering). */
  sendAnswering(method: string, params: Record<string, unknown>, options: RequestOptions): Promise<unknown>;
  /** Whether `x-mcp-header` applies: only the modern revision's HTTP transport carries the headers. */
  paramHeadersApply(): boolean;
  /** Routes each call's `notifications/progress` to it. */
  readonly progress: ProgressTracker;
  /** A tool's result, masked if it is an error result (ServerTextMask.result). */
  masked(result: CallToolResult): CallToolResult;
  /** Who the server is, in log lines (never the transport's description: a URL may hold a token). */
  readonly serverName: string;
  /** Hears of each listed tool that is left out; the default logs a warning. */
  onRejectedTool: ((tool: RejectedTool) => void) | undefined;
}

/**
 * A server's tools: `tools/list` (paged, checked, cached for the connection until
 * `notifications/tools/list_changed`) and `tools/call`, with its progress and, in the modern era
 * over HTTP, its `Mcp-Param-*` headers.
 */
export class ServerTools {
  private readonly list = new CachedList<ToolDefinition>();
  /** The `x-mcp-header` markings of each listed tool (modern era over HTTP only). */
  private readonly paramMarks = new ToolParamMarks();

  constructor(private readonly host: ToolsHost) {}

  /** Every tool of the server, all pages, asked once per connection. */
  listAll(options: CallOptions): Promise<ToolDefinition[]> {
    return this.list.get(() => this.fetchAll(options));
  }

  /** The next `listAll` asks the server again. */
  forget(): void {
    this.list.drop();
  }

  /**
   * Calls a tool. The call carries a progress token: each progress the server reports goes to
   * `onProgress` and resets the call's timeout (bounded, see request-timeout.ts). In the modern era
   * an `input_required` answer is answered (forms, roots) and the call sent again until complete;
   * over HTTP the marked arguments go in `Mcp-Param-*` headers, and a HeaderMismatch re-lists the
   * tools and retries once.
   */
  async call(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const { host } = this;
    const progress = new CallProgress(options.onProgress);
    const token = host.progress.track(progress);
    try {
      let raw: unknown;
      try {
        raw = await this.send(name, args, options, token, progress);
      } catch (error) {
        if (!(error instanceof McpError && error.code === ModernErrorCode.HeaderMismatch && host.paramHeadersApply())) throw error;
        log.debug(`${host.serverName}: ${error.message}; listing the tools again and retrying ${name} once`);
        this.list.drop();
        await this.listAll(options);
        raw = await this.send(name, args, options, token, progress);
      }
      return host.masked(parseResult(CallToolResult, raw, "tools/call"));
    } finally {
      host.progress.untrack(token);
    }
  }

  private send(name: string, args: Record<string, unknown>, options: CallOptions, progressToken: ProgressToken, progress: CallProgress): Promise<unknown> {
    const headers = this.host.paramHeadersApply() ? this.paramMarks.headersFor(name, args) : undefined;
    const { timeoutMs, signal, clientCapabilities } = options;
    const sendOptions: RequestOptions = { timeoutMs, signal, clientCapabilities, progressToken, headers, progress };
    return this.host.sendAnswering("tools/call", { name, arguments: args }, sendOptions);
  }

  private async fetchAll(options: CallOptions): Promise<ToolDefinition[]> {
    const checkHeaders = this.host.paramHeadersApply();
    this.paramMarks.begin();
    const tools = await fetchAllPages({
      method: "tools/list",
      field: "tools",
      request: (params) => this.host.request("tools/list", params, options),
      accept: (raws, offset) => {
        const page = checkToolDefinitions(raws, offset);
        for (const rejected of page.rejected) this.reject(rejected);
        return page.tools.filter((tool) => !checkHeaders || this.paramMarks.admit(tool, (rejected) => this.reject(rejected)));
      },
    });
    if (checkHeaders) this.paramMarks.finish();
    return tools;
  }

  private reject(rejected: RejectedTool): void {
    if (this.host.onRejectedTool) this.host.onRejectedTool(rejected);
    // Not the transport's description: an HTTP URL may carry a token in its query.
    else log.warn(`MCP tool '${rejected.name}' is left out: ${rejected.reason}`);
  }
}
