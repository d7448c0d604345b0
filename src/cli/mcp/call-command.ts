import { defineCommand, type ArgsDef } from "citty";
import { rejectUnknownFlags } from "../known-flags.ts";
import { flattenContent } from "../../mcp/text-index.ts";
import { CallFeedback } from "../../terminal/call-feedback.ts";
import { CliError, ExitCode } from "../../terminal/cli-error.ts";
import { printResult } from "../../terminal/output.ts";
import { unknownNameMessage } from "../../terminal/suggest.ts";
import { parseJsonArguments } from "./call-arguments.ts";
import { parseKeyValueArguments } from "../../terminal/key-value-arguments.ts";
import { parseKeepAlive } from "./keep-alive-choice.ts";
import { cliErrorFor } from "./server-errors.ts";
import { keeperArgs, openServers, signInFirst } from "./server-access.ts";
import { AD_HOC_NAME, isAdHoc, loadServerEntries, rootsFromArgs, selectEntry, serverSourceArgs } from "./server-selection.ts";
import { signInArgs } from "./sign-in-args.ts";
import { jsonForTerminal } from "../../terminal/terminal-json.ts";

const callArgs = {
  server: { type: "positional", required: false, description: "The server's name in the config (absent with --stdio or --url)" },
  tool: { type: "positional", required: false, description: "The tool's name as the server gives it" },
  json: { type: "string", description: "The arguments as one JSON object", valueHint: "object" },
  raw: { type: "boolean", description: "Print the whole JSON result" },
  elicitation: {
    type: "string",
    description: "When the server asks for input: decline (the default; a line on stderr says what it asked) or accept-defaults (send a form's defaults)",
    valueHint: "decline|accept-defaults",
  },
  ...signInArgs,
  ...keeperArgs,
  ...serverSourceArgs,
} as const satisfies ArgsDef;

export default defineCommand({
  meta: {
    name: "call",
    description: "Call one tool of one MCP server: cat-code mcp call <server> <tool> [--json '<object>' | key=value ...]",
  },
  args: callArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, callArgs);
    const keepAlive = parseKeepAlive(args["keep-alive"]);
    // With --stdio or --url the server is implied, so every positional shifts left by one.
    const positionals = [args.server, args.tool, ...args._.slice(2)].filter((p): p is string => p !== undefined);
    const [serverName, toolName, ...pairs] = isAdHoc(args) ? [AD_HOC_NAME, ...positionals] : positionals;
    if (!serverName || !toolName) throw CliError.usage("usage: cat-code mcp call <server> <tool> [--json '<object>' | key=value ...]");
    if (args.json !== undefined && pairs.length > 0) throw CliError.usage("give the arguments either as --json or as key=value, not both");
    const jsonArguments = args.json === undefined ? undefined : parseJsonArguments(args.json);
    const answering = elicitationMode(args.elicitation);

    const roots = rootsFromArgs(rawArgs);
    const entry = selectEntry(loadServerEntries(args), serverName);
    const feedback = new CallFeedback();
    const auth = args.login ? await signInFirst([entry], args, args.browser) : undefined;
    const servers = await openServers([entry], {
      roots,
      source: args,
      auth,
      elicitation: answering,
      onNote: (line) => feedback.note(line),
      onServerLog: (logged) => feedback.log(logged),
      cold: args.keeper === false || args.login,
      tool: toolName,
      keepAlive,
      ahead: { server: serverName, tool: toolName, ...(jsonArguments ? { arguments: jsonArguments } : { pairs }), onProgress: (update) => feedback.progress(update) },
    });
    try {
      await servers.connectAll();
      const [status] = servers.status();
      if (status?.state !== "connected") throw (status && cliErrorFor(status)) ?? CliError.unavailable(`cannot connect to MCP server '${serverName}': not connected`);
      const tool = status.tools.find((t) => t.name === toolName);
      if (!tool) throw CliError.usage(`server '${serverName}': ${unknownNameMessage("tool", toolName, status.tools.map((t) => t.name))}`);
      const toolArguments = jsonArguments ?? parseKeyValueArguments(pairs, tool.inputSchema as Record<string, unknown>);

      let result;
      try {
        // The arguments are checked against the tool's schema first: a mistake is exit 2, nothing sent.
        result = await servers.call(serverName, toolName, toolArguments, { onProgress: (update) => feedback.progress(update) });
      } catch (error) {
        // Exit 5 for a refresh refused mid-call, or more scope than a sign-in without --login can give; 3 for any other failure.
        throw cliErrorFor(error, `calling '${toolName}' on '${serverName}'`);
      } finally {
        feedback.done();
      }
      // The whole result, uncut: the model's output cap is for the model, not for a script.
      const text = args.raw ? jsonForTerminal(result, 2) : flattenContent(result);
      // A script gets the bytes the server sent; a terminal gets them sanitized (printResult decides).
      await printResult(text);
      if (result.isError) process.exitCode = ExitCode.ToolError;
    } finally {
      await servers.closeAll();
    }
  },
});

const ELICITATION_MODES = ["decline", "accept-defaults"] as const;

/**
 * `--elicitation`: nobody is there to answer a server's question, so the flag says what to send.
 * Accepting defaults is what pressing Enter through the form would send; a form that needs an
 * answer without a default, and every link, are declined all the same.
 */
function elicitationMode(value: string | undefined): (typeof ELICITATION_MODES)[number] {
  if (value === undefined) return "decline";
  const mode = ELICITATION_MODES.find((m) => m === value);
  if (!mode) throw CliError.usage(`--elicitation must be decline or accept-defaults, got '${value}'`);
  return mode;
}
