/**
 * A warm `mcp call` whose keeper fails before the servers connect runs cold instead, unless the call
 * it sent behind the connect may still run in that keeper: then it fails, so a tool never runs twice
 * for one command. Against a fake keeper of this version on a real socket.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { openWarm } from "../../../src/cli/mcp/warm-server-access.ts";
import type { ServerAccess } from "../../../src/cli/mcp/server-access-contract.ts";
import { keeperPaths } from "../../../src/keeper/keeper-paths.ts";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { CliError } from "../../../src/terminal/cli-error.ts";
import { VERSION } from "../../../src/version.ts";
import { tempDir } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { FakeKeeper } from "./keeper-launch-fakes.ts";

const ENTRY = { name: "echo", scope: "user", source: "test", ok: true, config: { type: "stdio", command: "echo-server", args: [], env: {}, timeout: 60_000 } } as unknown as ServerEntry;
const savedHome = process.env.CAT_CODE_HOME;
let fake: FakeKeeper | undefined;

beforeEach(() => {
  process.env.CAT_CODE_HOME = tempDir("cat-code-warm-fallback-");
  mkdirSync(keeperPaths().folder, { recursive: true, mode: 0o700 });
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  if (savedHome === undefined) delete process.env.CAT_CODE_HOME;
  else process.env.CAT_CODE_HOME = savedHome;
});

/** `mcp call echo echo` through the fake: what connectAll did, and whether the command went cold. */
async function warmCall(): Promise<{ outcome: unknown; wentCold: boolean }> {
  let wentCold = false;
  const cold = async (): Promise<ServerAccess> => {
    wentCold = true;
    return { connectAll: async () => {}, status: () => [], call: async () => ({ content: [] }), closeAll: async () => {} } as unknown as ServerAccess;
  };
  const options = { roots: [process.cwd()], elicitation: "decline" as const, tool: "echo", ahead: { server: "echo", tool: "echo", arguments: { text: "once" } } };
  const access = await openWarm([ENTRY], options as never, cold);
  if (!access) throw new Error("no keeper found");
  const outcome = await access.connectAll().then(
    () => "connected",
    (error: unknown) => error,
  );
  await access.closeAll();
  return { outcome, wentCold };
}

test("connect answered with what the command cannot use: the call sent behind it may run there, so the command fails, saying so, and makes no second call", async () => {
  fake = await FakeKeeper.start(keeperPaths(), { answers: true, version: VERSION, connectWith: { statuses: [] } });
  const { outcome, wentCold } = await warmCall();
  expect(wentCold).toBe(false);
  expect(outcome).toBeInstanceOf(CliError);
  expect((outcome as Error).message).toContain("the call 'echo' was sent to it and may have run there, so it is not made again");
  // Sent once hello was answered: it reaches the keeper, once, and nothing is sent after it.
  await waitFor(() => fake!.requests.some((request) => request.op === "call"), "the call sent behind the connect");
  expect(fake.requests.map((request) => request.op)).toEqual(["hello", "connect", "call"]);
});

test("the keeper ends the socket at connect: it runs nothing more, so the command connects the server itself", async () => {
  fake = await FakeKeeper.start(keeperPaths(), { answers: true, version: VERSION, dropOn: "connect" });
  const { outcome, wentCold } = await warmCall();
  expect([outcome, wentCold]).toEqual(["connected", true]);
});
