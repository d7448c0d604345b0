import type { ServerEntry } from "../../mcp/config/server-config.ts";
import type { ServerPool, ServerStatus } from "../../mcp/index.ts";
import { McpError } from "../../mcp/light-index.ts";
import { ErrorCode } from "../../mcp/protocol.ts";
import { checkArguments } from "../../terminal/argument-check.ts";
import { declinedElicitation, defaultsOrDecline } from "../../terminal/declined-elicitation.ts";
import type { ServerAccess, ServerAccessOptions } from "./server-access-contract.ts";
import { cliAuth, openPool } from "./open-pool.ts";

/** The servers connected by the command itself, as before the keeper: one pool, closed on every way out. */
export class ColdServerAccess implements ServerAccess {
  private readonly pool: ServerPool;

  constructor(entries: ServerEntry[], options: ServerAccessOptions) {
    const { roots, onServerLog, onNote } = options;
    const auth = options.auth ?? cliAuth(options.source);
    const note = (line: string) => (onNote ? onNote(line) : process.stderr.write(`${line}\n`));
    const elicitation =
      options.elicitation === undefined ? undefined : options.elicitation === "accept-defaults" ? defaultsOrDecline(note) : declinedElicitation(note);
    this.pool = openPool(entries, { roots, elicitation, watchChanges: false, auth });
    if (onServerLog) this.pool.on("log", onServerLog);
  }

  connectAll(): Promise<void> {
    return this.pool.connectAll();
  }

  status(): ServerStatus[] {
    return this.pool.status();
  }

  async call(...[server, tool, args, options]: Parameters<ServerAccess["call"]>) {
    const client = this.pool.client(server);
    if (!client) throw new McpError(ErrorCode.ConnectionClosed, `MCP server '${server}' is not connected`);
    const status = this.pool.status().find((s) => s.name === server);
    const definition = status?.state === "connected" ? status.tools.find((t) => t.name === tool) : undefined;
    if (definition) checkArguments(args, definition.inputSchema as Record<string, unknown>);
    return client.callTool(tool, args, options);
  }

  closeAll(): Promise<void> {
    return this.pool.closeAll();
  }
}
