import { defineCommand, type ArgsDef } from "citty";
import { rejectUnknownFlags } from "../known-flags.ts";
import type { GetPromptResult, Prompt } from "../../mcp/protocol.ts";
import { flattenContent } from "../../mcp/text-index.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { printResult } from "../../terminal/output.ts";
import { unknownNameMessage } from "../../terminal/suggest.ts";
import { featureCommandArgs, splitServerPositionals, withFeatureServers } from "./feature-servers.ts";
import { cliErrorFor } from "./server-errors.ts";
import { checkPromptArguments } from "./prompt-arguments.ts";
import { parseStringPairs } from "./string-pairs.ts";
import { jsonForTerminal } from "../../terminal/terminal-json.ts";

const USAGE = "usage: cat-code mcp prompt <server> <name> [key=value ...] [--json]";

const promptArgs = {
  server: { type: "positional", required: false, description: "The server's name in the config (absent with --stdio or --url)" },
  name: { type: "positional", required: false, description: "The prompt's name as the server gives it" },
  json: { type: "boolean", description: "Print the whole JSON result" },
  ...featureCommandArgs,
} as const satisfies ArgsDef;

export default defineCommand({
  meta: { name: "prompt", description: "Get one prompt of one MCP server and print its messages: cat-code mcp prompt <server> <name> [key=value ...]" },
  args: promptArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, promptArgs);
    const [serverName, [promptName, ...pairs]] = splitServerPositionals(args, [args.server, args.name]);
    if (!serverName || !promptName) throw CliError.usage(USAGE);
    const given = parseStringPairs(pairs, "argument");

    const result = await withFeatureServers(args, rawArgs, serverName, "prompts", async ([server], feedback) => {
      const what = `getting prompt '${promptName}' from '${serverName}'`;
      let prompts: Prompt[];
      try {
        prompts = await server!.client.listPrompts();
      } catch (error) {
        throw cliErrorFor(error, what);
      }
      const prompt = prompts.find((p) => p.name === promptName);
      if (!prompt) throw CliError.usage(`server '${serverName}': ${unknownNameMessage("prompt", promptName, prompts.map((p) => p.name))}`);
      checkPromptArguments(prompt, given);
      try {
        return await server!.client.getPrompt(promptName, given);
      } catch (error) {
        throw cliErrorFor(error, what);
      } finally {
        feedback.done();
      }
    });
    await printResult(args.json ? jsonForTerminal(result, 2) : messagesText(result));
  },
});

/** Each message as `[role]` and its content: text as it is, any other block as a one-line description. */
function messagesText(result: GetPromptResult): string {
  if (result.messages.length === 0) return "(the prompt has no messages)";
  return result.messages.map((m) => `[${m.role}]\n${flattenContent({ content: [m.content], isError: false })}`).join("\n\n");
}
