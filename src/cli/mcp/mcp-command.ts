import { defineCommand, runCommand, type ArgsDef, type CommandDef } from "citty";
import { quickParse } from "../quick-flags.ts";

const subCommands = {
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
};

const mcp = defineCommand({
  meta: { name: "mcp", description: "Configure, inspect and call MCP servers" },
  subCommands,
});
export default mcp;

/** The commands a warm path serves: their time is mostly start-up, so a plain line skips citty's parse. */
const QUICK = new Set(["call", "tools", "list"]);

/**
 * `cat-code mcp <rawArgs>`. `mcp call | tools | list` with a plain command line (quickParse) run
 * their command straight away; any other line goes through citty, as every other command does.
 */
export async function runMcpCommand(rawArgs: string[]): Promise<void> {
  const [name, ...rest] = rawArgs;
  if (name !== undefined && QUICK.has(name)) {
    const command = (await subCommands[name as keyof typeof subCommands]()) as CommandDef<ArgsDef>;
    const args = command.run && !command.setup && !command.cleanup && !command.subCommands ? quickParse(rest, (command.args ?? {}) as ArgsDef) : undefined;
    if (args) {
      await command.run!({ rawArgs: rest, args, cmd: command });
      return;
    }
  }
  await runCommand(mcp, { rawArgs });
}
