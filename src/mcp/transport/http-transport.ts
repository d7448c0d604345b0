import { McpError } from "../mcp-error.ts";
import type { JsonRpcNotification } from "../protocol.ts";
import type { RequestOptions, ServerRequestHandler, Transport } from "./transport.ts";

export interface HttpServerParams {
  url: string;
  headers: Record<string, string>;
}

/** Placeholder until the Streamable HTTP transport lands (issue 3): fails the server plainly. */
export class HttpTransport implements Transport {
  onServerRequest?: ServerRequestHandler;
  onNotification?: (notification: JsonRpcNotification) => void;
  onClose?: (error: Error) => void;
  readonly description: string;

  constructor(private readonly params: HttpServerParams) {
    this.description = `http: ${params.url}`;
  }

  async start(): Promise<void> {
    throw new McpError(undefined, `the Streamable HTTP transport is not available yet (${this.params.url})`);
  }
  request(_method: string, _params?: unknown, _options?: RequestOptions): Promise<unknown> {
    return this.start();
  }
  notify(): Promise<void> {
    return this.start();
  }
  async close(): Promise<void> {}
}
