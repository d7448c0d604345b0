import { defineCommand } from "citty";

export default defineCommand({
  meta: { name: "mcp", description: "Inspect and call MCP servers" },
  subCommands: {
    list: () => import("./list-command.ts").then((m) => m.default),
    tools: () => import("./tools-command.ts").then((m) => m.default),
    call: () => import("./call-command.ts").then((m) => m.default),
  },
});
