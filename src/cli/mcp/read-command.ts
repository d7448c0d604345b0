import { defineCommand, type ArgsDef } from "citty";
import { rejectUnknownFlags } from "../known-flags.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { printResult } from "../../terminal/output.ts";
import { featureCommandArgs, splitServerPositionals, withFeatureServers } from "./feature-servers.ts";
import { cliErrorFor } from "./server-errors.ts";
import { writeResourceContents } from "./resource-output.ts";
import { expandUriTemplate, isUriTemplate } from "./uri-template-arguments.ts";
import { jsonForTerminal } from "../../terminal/terminal-json.ts";

const USAGE = "usage: cat-code mcp read <server> <uri> [key=value ...] [--out FILE] [--json]";

const readArgs = {
  server: { type: "positional", required: false, description: "The server's name in the config (absent with --stdio or --url)" },
  uri: { type: "positional", required: false, description: "The resource's URI, or a template's (with {variables}, filled in from key=value)" },
  out: { type: "string", description: "Write the contents (binary decoded) to this file instead of stdout", valueHint: "file" },
  json: { type: "boolean", description: "Print the whole JSON result" },
  ...featureCommandArgs,
} as const satisfies ArgsDef;

export default defineCommand({
  meta: { name: "read", description: "Read one resource of one MCP server: cat-code mcp read <server> <uri> [key=value ...] [--out FILE]" },
  args: readArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, readArgs);
    const [serverName, [given, ...pairs]] = splitServerPositionals(args, [args.server, args.uri]);
    if (!serverName || !given) throw CliError.usage(USAGE);
    if (args.json && args.out !== undefined) throw CliError.usage("give either --json or --out, not both");
    if (args.out === "") throw CliError.usage("--out needs a file name");
    // Checked before any server starts: a mistake here is a usage error, and nothing is sent.
    let uri = given;
    if (isUriTemplate(given)) uri = expandUriTemplate(given, pairs);
    else if (pairs.length > 0) throw CliError.usage(`key=value arguments (${pairs[0]}) only go with a template URI, one with {variables}`);

    const result = await withFeatureServers(args, rawArgs, serverName, "resources", async ([server], feedback) => {
      try {
        return await server!.client.readResource(uri);
      } catch (error) {
        throw cliErrorFor(error, `reading '${uri}' from '${serverName}'`);
      } finally {
        feedback.done();
      }
    });
    // The whole result, uncut: the model's output cap is for the model, not for a script.
    if (args.json) await printResult(jsonForTerminal(result, 2));
    else await writeResourceContents(result.contents, serverName, { out: args.out, terminal: process.stdout.isTTY === true });
  },
});
