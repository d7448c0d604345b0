import { serverEnvironment } from "../../system/own-secrets.ts";
import type { ServerConfig } from "../config/server-config.ts";
import { HttpTransport } from "./http-transport.ts";
import { StdioTransport } from "./stdio-transport.ts";
import type { Transport } from "./transport.ts";

export function createTransport(config: ServerConfig): Transport {
  switch (config.type) {
    case "stdio":
      return new StdioTransport({
        command: config.command,
        args: config.args,
        // Ours without our own and other tools' well-known secrets, then the entry's `env` on top.
        env: serverEnvironment(config.env).env,
        cwd: config.cwd,
      });
    case "http":
      return new HttpTransport({ url: config.url, headers: config.headers });
  }
}
