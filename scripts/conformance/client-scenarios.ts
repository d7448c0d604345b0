import type { CatCodeCli } from "./cat-code-cli.ts";

/** `MCP_CONFORMANCE_CONTEXT`: what some scenarios tell the client to do (e.g. the calls to make). */
export interface ScenarioContext {
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  /** A client registered beforehand (auth/pre-registration, auth/client-credentials-basic). */
  client_id?: string;
  client_secret?: string;
}

/** The Client ID Metadata Document URL the suite's own client uses (its AS accepts it as a client id). */
export const CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** The scenarios whose server takes the machine grant instead of a sign-in in a browser. */
const CLIENT_CREDENTIALS = new Set(["auth/client-credentials-basic"]);

/**
 * The `oauth` block a user would write in the entry for an `auth/*` scenario's server: the client
 * the context gives (pre-registration), the grant the server wants (client_credentials), and a
 * Client ID Metadata Document URL, a user setting cat-code uses only when the authorization server
 * advertises CIMD support. Undefined for a scenario that is not about authorization.
 */
export function oauthSettings(scenario: string, context: ScenarioContext): Record<string, unknown> | undefined {
  if (!scenario.startsWith("auth/")) return undefined;
  return {
    ...(context.client_id ? { clientId: context.client_id } : {}),
    ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
    ...(CLIENT_CREDENTIALS.has(scenario) ? { grant: "client_credentials" } : {}),
    clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
  };
}

/** `mcp call`'s exit code when a server needs a sign-in first (README, exit codes). */
const NEEDS_AUTH = 5;
/** How often the user of AUTH_PLAY follows "run cat-code mcp login" before giving up. */
const MAX_LOGINS = 3;

/**
 * Every `auth/*` scenario, as a user meets it: `mcp call`, which exits 5 naming `mcp login` when the
 * server needs a sign-in (or more scope, or a sign-in at a new authorization server); `mcp login`
 * (the browser stand-in approves); `mcp call` again, and so on while the call asks for it, at most
 * MAX_LOGINS times. The scenarios that must be refused (wrong resource, issuer or iss) fail at the
 * login, which their verdict allows; the suite judges that no token was asked for.
 */
export const AUTH_PLAY: ScenarioPlay = async (cli) => {
  let step = await cli.call("test-tool", {}, [], [0, NEEDS_AUTH]);
  for (let logins = 0; step.exitCode === NEEDS_AUTH; logins++) {
    if (logins === MAX_LOGINS) {
      cli.failures.push(`${step.command}: still exit ${NEEDS_AUTH} after ${MAX_LOGINS} sign-ins`);
      return;
    }
    if ((await cli.login()).exitCode !== 0) return;
    step = await cli.call("test-tool", {}, [], [0, NEEDS_AUTH]);
  }
};

/** The play for a scenario, or undefined when there is none. */
export function playFor(scenario: string): ScenarioPlay | undefined {
  return PLAYS[scenario] ?? (scenario.startsWith("auth/") ? AUTH_PLAY : undefined);
}

/**
 * What a user of cat-code would do against the scenario's server, through the CLI. The suite's
 * server judges what arrives; a play only chooses the commands, never builds a protocol message.
 * The same play serves every revision: cat-code must find out by itself which one the server speaks.
 */
export type ScenarioPlay = (cli: CatCodeCli, context: ScenarioContext) => Promise<void>;

export const PLAYS: Record<string, ScenarioPlay> = {
  // The handshake (protocolVersion, clientInfo) is judged; listing the tools connects.
  initialize: async (cli) => {
    await cli.listTools();
  },
  // The server offers add_numbers {a, b} and checks that a call with two numbers arrives.
  tools_call: async (cli) => {
    await cli.call("add_numbers", { a: 2, b: 3 });
  },
  // The tool asks, over the standalone GET stream, for a form whose every field has a default, and
  // expects `accept` with each default filled in (SEP-1034). `mcp call` has nobody to ask, so the
  // user says up front what to answer: the form's defaults.
  "elicitation-sep1034-client-defaults": async (cli) => {
    await cli.call("test_client_elicitation_defaults", {}, ["--elicitation", "accept-defaults"]);
  },
  // The tool's SSE stream closes before its answer (retry: 500 ms); the answer comes on a GET with
  // Last-Event-ID sent no earlier than the retry time.
  "sse-retry": async (cli) => {
    await cli.call("test_reconnection", {});
  },
  // The first request is refused with -32022 (supported: 2026-07-28); every request's _meta and
  // MCP-Protocol-Version header are judged, and the retry must use a supported version.
  "request-metadata": async (cli) => {
    await cli.listTools();
  },
  // Each tool answers input_required (an elicitation) first; the retry must echo requestState exactly,
  // omit it when none came, use a new JSON-RPC id, and carry nothing over to another tool's call.
  "sep-2322-client-request-state": async (cli) => {
    for (const tool of ["test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"]) {
      await cli.call(tool, {});
    }
  },
  // Mcp-Method on every POST, Mcp-Name on tools/call (one tool name has a hyphen).
  "http-standard-headers": async (cli) => {
    for (const tool of await cli.listTools()) await cli.call(tool.tool, exampleArguments(tool.inputSchema));
  },
  // The calls come from the suite: x-mcp-header parameters become Mcp-Param-* headers, encoded.
  "http-custom-headers": async (cli, context) => {
    for (const call of context.toolCalls ?? []) await cli.call(call.name, call.arguments);
  },
  // Eleven tools carry invalid x-mcp-header markings: cat-code must leave them out of its list and
  // keep the valid one. Calling every tool cat-code lists shows which ones it kept.
  "http-invalid-tool-headers": async (cli) => {
    for (const tool of await cli.listTools()) await cli.call(tool.tool, exampleArguments(tool.inputSchema));
  },
  // A tool's inputSchema has a $ref to a canary URL on the server: listing must not fetch it.
  "json-schema-ref-no-deref": async (cli) => {
    await cli.listTools();
  },
  // The schema cat-code keeps for json_schema_2020_12_tool is echoed back through json_schema_echo:
  // $schema, $defs, additionalProperties (and for 2026-07-28 allOf/anyOf, if/then/else, $anchor) must survive.
  "json-schema-2020-12-preservation": async (cli) => {
    const focal = (await cli.listTools()).find((tool) => tool.tool === "json_schema_2020_12_tool");
    if (!focal) throw new Error("cat-code did not list json_schema_2020_12_tool");
    await cli.call("json_schema_echo", { schema: focal.inputSchema });
  },
};

const SAMPLES: Record<string, unknown> = { string: "sample", integer: 1, number: 1.5, boolean: true, object: {}, array: [], null: null };

/** Arguments a tool accepts: each required property with a sample value of its type. */
export function exampleArguments(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown } | undefined>;
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
  return Object.fromEntries(required.map((name) => [name, SAMPLES[String(properties[name]?.type)] ?? "sample"]));
}
