import { JsonRpcConnection } from "../../src/mcp/rpc/json-rpc-connection.ts";
import type { Transport } from "../../src/mcp/transport/transport.ts";

const connections = new WeakMap<Transport, JsonRpcConnection>();

/** The one JSON-RPC connection over `transport`, made on first use: transport tests speak through it. */
export function rpc(transport: Transport): JsonRpcConnection {
  let connection = connections.get(transport);
  if (!connection) {
    connection = new JsonRpcConnection(transport);
    connections.set(transport, connection);
  }
  return connection;
}
