/**
 * Runs the REPL's elicitation prompt on one request, as the REPL would, at whatever terminal it is
 * started in; prints `RESULT <json>` with the answer and exits. For the PTY tests of the prompt.
 * argv: <server name> <params of elicitation/create as JSON>.
 */
import { parseElicitationRequest } from "../../../src/mcp/client/elicitation.ts";
import { cancelKeys, interactiveElicitation } from "../../../src/repl/elicitation-prompt.ts";
import { LineReader } from "../../../src/repl/line-reader.ts";
import { ansiStyle } from "../../../src/repl/tool-call-line.ts";

const [server = "demo", params = "{}"] = process.argv.slice(2);
const reader = new LineReader(process.stdin, process.stdout);
const handler = interactiveElicitation({
  ask: (question, signal) => reader.read(question, { signal, remember: false }),
  onCancelKey: cancelKeys(process.stdin),
  print: (line) => process.stdout.write(`${line}\n`),
  style: ansiStyle,
});
const result = await handler(parseElicitationRequest(server, JSON.parse(params)));
process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
reader.close();
process.exit(0);
