import { defineCommand, type ArgsDef } from "citty";
import { parseAddArguments } from "./add-arguments.ts";
import { scopeArg } from "./config-scope.ts";
import { saveEntry } from "./save-entry.ts";

// For the usage text only: `run` reads the raw arguments itself, since -e and -H repeat.
const addArgs = {
  name: { type: "positional", required: false, description: "The server's name: letters, digits, '_' and '-'" },
  url: { type: "positional", required: false, description: "With --transport http: the server's URL" },
  transport: { type: "string", alias: "t", description: "stdio (the default) or http", valueHint: "stdio|http" },
  env: { type: "string", alias: "e", description: "An environment variable for a stdio server; repeat for more", valueHint: "KEY=VALUE" },
  header: { type: "string", alias: "H", description: "An HTTP header for an http server; repeat for more", valueHint: "'Key: Value'" },
  cwd: { type: "string", description: "The folder a stdio server starts in", valueHint: "dir" },
  timeout: { type: "string", description: "The server's request timeout", valueHint: "ms" },
  "client-id": { type: "string", description: "OAuth (http): the client id the server's owner gave you, instead of registering one", valueHint: "id" },
  "client-secret": { type: "string", description: "OAuth (http): its secret; write '${VAR}' to keep it out of the file and your shell history", valueHint: "'${VAR}'" },
  "callback-port": { type: "string", description: "OAuth (http): the fixed local port the sign-in returns to, when the client id was registered with one", valueHint: "port" },
  "oauth-scope": { type: "string", description: "OAuth (http): the scopes to ask for; repeat, or separate with spaces", valueHint: "'a b'" },
  ...scopeArg,
  verbose: { type: "boolean", description: "Log debug lines to stderr" },
} as const satisfies ArgsDef;

export default defineCommand({
  meta: {
    name: "add",
    description: "Add a server: cat-code mcp add <name> [-e KEY=VALUE]… -- <command> [args…], or --transport http <name> <url> [-H 'Key: Value']… [--client-id <id>] [--oauth-scope 'a b']…",
  },
  args: addArgs,
  async run({ rawArgs }) {
    const { name, scope, entry } = parseAddArguments(rawArgs);
    await saveEntry(name, scope, entry);
  },
});
