/**
 * A preload for `bun --preload`: loading the pool, an MCP client (or the parts split out of it:
 * feature-requests.ts, server-messages.ts), a transport or the OAuth code fails at once. A command
 * that goes through the keeper needs none of them (keeper-client-commands.test.ts),
 * nor jsonc-parser while its config file is valid JSON (src/config/jsonc.ts), nor the stateless
 * era's schemas (src/mcp/logging-level.ts says why), nor the JSON Schema validator (the keeper checks
 * a warm call's arguments: src/terminal/argument-check.ts), nor the settings' loader and the permission
 * rules' syntax while there is no settings.json (`mcp list` reads disabledMcpServers only from one).
 */
import { plugin } from "bun";

const COLD = /\/src\/mcp\/(pool|auth)\/|\/src\/mcp\/client\/(mcp-client|feature-requests|server-messages)\.ts$|\/src\/mcp\/transport\/(stdio|http|create)-|\/node_modules\/jsonc-parser\/|\/src\/mcp\/stateless-protocol\.ts$|\/node_modules\/@cfworker\/json-schema\/|\/src\/terminal\/argument-check\.ts$|\/src\/settings\/load-settings\.ts$|\/src\/system\/permission-rule-syntax\.ts$/;

plugin({
  name: "forbid-cold-modules",
  setup(build) {
    build.onLoad({ filter: COLD }, (args) => {
      throw new Error(`forbidden module loaded: ${args.path}`);
    });
  },
});
