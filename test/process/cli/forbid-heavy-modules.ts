/**
 * A preload for `bun --preload`: loading the MCP, agent or REPL code, or the SDKs and the logger
 * they pull in, fails at once. It shows which commands start without them (lazy-startup.test.ts).
 */
import { plugin } from "bun";

const HEAVY = /\/src\/(mcp|agent|repl)\/|\/node_modules\/(@anthropic-ai|@modelcontextprotocol|consola|valibot)\//;

plugin({
  name: "forbid-heavy-modules",
  setup(build) {
    build.onLoad({ filter: HEAVY }, (args) => {
      throw new Error(`forbidden module loaded: ${args.path}`);
    });
  },
});
