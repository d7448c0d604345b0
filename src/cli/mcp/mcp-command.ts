import { defineCommand } from "citty";

export default defineCommand({
  meta: { name: "mcp", description: "Configure, inspect and call MCP servers" },
  subCommands: {
    list: () => import("./list-command.ts").then((m) => m.default),
    tools: () => import("./tools-command.ts").then((m) => m.default),
    call: () => import("./call-command.ts").then((m) => m.default),
    resources: () => import("./resources-command.ts").then((m) => m.default),
    read: () => import("./read-command.ts").then((m) => m.default),
    prompts: () => import("./prompts-command.ts").then((m) => m.default),
    prompt: () => import("./prompt-command.ts").then((m) => m.default),
    get: () => import("./get-command.ts").then((m) => m.default),
    add: () => import("./add-command.ts").then((m) => m.default),
    "add-json": () => import("./add-json-command.ts").then((m) => m.default),
    login: () => import("./login-command.ts").then((m) => m.default),
    logout: () => import("./logout-command.ts").then((m) => m.default),
    remove: () => import("./remove-command.ts").then((m) => m.default),
    approve: () => import("./approval-commands.ts").then((m) => m.approve),
    deny: () => import("./approval-commands.ts").then((m) => m.deny),
    keeper: () => import("./keeper-command.ts").then((m) => m.default),
    serve: () => import("./serve-command.ts").then((m) => m.default),
  },
});
