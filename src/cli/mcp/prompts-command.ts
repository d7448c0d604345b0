import { defineCommand, type ArgsDef } from "citty";
import { rejectUnknownFlags } from "../known-flags.ts";
import { printResult } from "../../terminal/output.ts";
import { alignColumns, firstLine, sanitizeForTerminal } from "../../terminal/terminal-text.ts";
import { argumentList } from "./prompt-arguments.ts";
import { featureCommandArgs, splitServerPositionals, withFeatureServers } from "./feature-servers.ts";
import { cliErrorFor } from "./server-errors.ts";
import { jsonForTerminal } from "../../terminal/terminal-json.ts";

const promptsArgs = {
  server: { type: "positional", required: false, description: "Only this server's prompts" },
  json: { type: "boolean", description: "Print one JSON document" },
  ...featureCommandArgs,
} as const satisfies ArgsDef;

export default defineCommand({
  meta: { name: "prompts", description: "List the prompts of every MCP server that offers them, or of one (required arguments marked *)" },
  args: promptsArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, promptsArgs);
    const [only] = splitServerPositionals(args, [args.server]);
    const listed = await withFeatureServers(args, rawArgs, only, "prompts", (servers) =>
      Promise.all(
        servers.map(async ({ name, client }) => {
          try {
            return { server: name, prompts: await client.listPrompts() };
          } catch (error) {
            throw cliErrorFor(error, `listing the prompts of '${name}'`);
          }
        }),
      ),
    );
    if (args.json) {
      // The spec's fields, picked one by one: a server's extra fields stay out and cannot pose as `server`.
      const prompts = listed.flatMap(({ server, prompts }) =>
        prompts.map((p) => ({
          server,
          name: p.name,
          title: p.title,
          description: p.description,
          arguments: (p.arguments ?? []).map((a) => ({ name: a.name, description: a.description, required: a.required === true })),
        })),
      );
      await printResult(jsonForTerminal({ prompts }, 2));
      return;
    }
    if (listed.every((s) => s.prompts.length === 0)) {
      console.error("No MCP prompts.");
      return;
    }
    // Listing all: each server named above its rows, since `mcp prompt` needs the name.
    const withHeaders = only === undefined;
    const lines = listed.flatMap(({ server, prompts }) => {
      const rows = prompts.map((p) => [p.name, argumentList(p), firstLine(p.description ?? "")].map((cell) => sanitizeForTerminal(cell)));
      const aligned = alignColumns(rows).map((line) => (withHeaders ? `  ${line}` : line));
      return withHeaders ? [`${sanitizeForTerminal(server)}: ${prompts.length} prompt(s)`, ...aligned] : aligned;
    });
    await printResult(lines.join("\n"));
  },
});
