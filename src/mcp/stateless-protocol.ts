/**
 * The part of the 2026-07-28 revision ("modern": no handshake, every request carries its version and
 * capabilities in `_meta`) that cat-code speaks, beside the handshake revisions of `protocol.ts`.
 * Loose objects, as there: fields we do not read pass through. Parsed once at the wire.
 */
import * as v from "valibot";
import { WholeObject } from "../system/whole-object.ts";
import { Implementation } from "./protocol.ts";

/** The one modern version we speak; the handshake versions are `SUPPORTED_PROTOCOL_VERSIONS`. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/** The reserved `_meta` keys of the revision. */
export const MetaKey = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  /** Opts a request in to `notifications/message` on its own stream; absent, the server sends none. */
  logLevel: "io.modelcontextprotocol/logLevel",
  /** On results: who answered. */
  serverInfo: "io.modelcontextprotocol/serverInfo",
  /** On notifications of a `subscriptions/listen` stream: the id of the listen request. */
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
  /** Not namespaced: it keeps the name it had in the handshake revisions. */
  progressToken: "progressToken",
} as const;

/** The JSON-RPC error codes the revision defines. On HTTP each comes with status 400. */
export const ModernErrorCode = {
  /** The HTTP headers disagree with the body, or a required one is missing or malformed. */
  HeaderMismatch: -32020,
  /** The request needs a client capability it did not declare. */
  MissingRequiredClientCapability: -32021,
  /** The server does not speak the requested version; `data.supported` lists what it does. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** What a client declares per request; an empty object declares nothing optional. */
export const ClientCapabilities = v.looseObject({
  roots: v.optional(WholeObject),
  sampling: v.optional(WholeObject),
  elicitation: v.optional(v.looseObject({ form: v.optional(WholeObject), url: v.optional(WholeObject) })),
  experimental: v.optional(WholeObject),
  extensions: v.optional(WholeObject),
});
export type ClientCapabilities = v.InferOutput<typeof ClientCapabilities>;

export { LOGGING_LEVELS, LoggingLevel } from "./logging-level.ts";

export const ProgressToken = v.union([v.string(), v.number()]);
export type ProgressToken = v.InferOutput<typeof ProgressToken>;

/** `_meta` of a result: only `serverInfo` is read, for display. */
const ResultMeta = v.looseObject({ [MetaKey.serverInfo]: v.optional(Implementation) });

/** The answer to `server/discover`: what the server speaks and offers. */
export const DiscoverResult = v.looseObject({
  supportedVersions: v.pipe(v.array(v.string()), v.maxLength(64, "more than 64 supported versions")),
  capabilities: v.optional(WholeObject, {}),
  instructions: v.optional(v.string()),
  _meta: v.optional(ResultMeta),
});
export type DiscoverResult = v.InferOutput<typeof DiscoverResult>;

/** `data` of an UnsupportedProtocolVersion error (-32022). */
export const UnsupportedVersionData = v.looseObject({
  supported: v.pipe(v.array(v.string()), v.maxLength(64, "more than 64 supported versions")),
  requested: v.optional(v.string()),
});
export type UnsupportedVersionData = v.InferOutput<typeof UnsupportedVersionData>;

/** How a result says whether it is final; absent means complete (servers of older revisions). */
export const ResultType = { complete: "complete", inputRequired: "input_required" } as const;

/** The requests a server may embed in an `input_required` result (MRTR). */
export const INPUT_REQUEST_METHODS = ["elicitation/create", "sampling/createMessage", "roots/list"] as const;

export const InputRequest = v.looseObject({
  method: v.picklist(INPUT_REQUEST_METHODS, (issue) => `unknown input request method ${JSON.stringify(issue.input)?.slice(0, 80)}`),
  params: v.optional(WholeObject),
});
export type InputRequest = v.InferOutput<typeof InputRequest>;

/**
 * A result that is not final: answer `inputRequests`, then retry the original request with
 * `inputResponses` and `requestState` echoed exactly. Servers must send at least one of the two;
 * the MRTR loop (client/input-required.ts) checks that.
 */
export const InputRequiredResult = v.looseObject({
  resultType: v.literal(ResultType.inputRequired),
  inputRequests: v.optional(v.record(v.string(), InputRequest)),
  requestState: v.optional(v.string()),
});
export type InputRequiredResult = v.InferOutput<typeof InputRequiredResult>;

/** A form the server asks the user to fill in: a flat object schema of primitive fields. */
export const ElicitFormParams = v.looseObject({
  mode: v.optional(v.literal("form")),
  message: v.string(),
  requestedSchema: v.looseObject({
    type: v.literal("object"),
    properties: v.record(v.string(), v.looseObject({ type: v.string() })),
    required: v.optional(v.array(v.string())),
  }),
});
export type ElicitFormParams = v.InferOutput<typeof ElicitFormParams>;

/** A page the server asks the user to open (never opened without the user's consent). */
export const ElicitUrlParams = v.looseObject({
  mode: v.literal("url"),
  message: v.string(),
  url: v.string(),
});
export type ElicitUrlParams = v.InferOutput<typeof ElicitUrlParams>;

/** `elicitation/create` params: a form (mode "form" or absent) or a URL (mode "url"). */
export const ElicitRequestParams = v.union([ElicitUrlParams, ElicitFormParams]);
export type ElicitRequestParams = v.InferOutput<typeof ElicitRequestParams>;

export const ElicitResult = v.looseObject({
  action: v.picklist(["accept", "decline", "cancel"]),
  /** Only with "accept" of a form. */
  content: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.array(v.string())]))),
});
export type ElicitResult = v.InferOutput<typeof ElicitResult>;

/** The answer to `roots/list`: the folders the server may work in, as `file://` URIs. */
export const ListRootsResult = v.looseObject({
  roots: v.array(
    v.looseObject({
      uri: v.pipe(v.string(), v.startsWith("file://", "a root's uri must start with file://")),
      name: v.optional(v.string()),
    }),
  ),
});
export type ListRootsResult = v.InferOutput<typeof ListRootsResult>;

/** What a `subscriptions/listen` stream opts in to; the server sends nothing else on it. */
export const SubscriptionFilter = v.looseObject({
  toolsListChanged: v.optional(v.boolean()),
  promptsListChanged: v.optional(v.boolean()),
  resourcesListChanged: v.optional(v.boolean()),
  resourceSubscriptions: v.optional(v.array(v.string())),
});
export type SubscriptionFilter = v.InferOutput<typeof SubscriptionFilter>;

/** The first message of a listen stream: the part of the filter the server will honour. */
export const SubscriptionsAcknowledgedParams = v.looseObject({ notifications: SubscriptionFilter });
export type SubscriptionsAcknowledgedParams = v.InferOutput<typeof SubscriptionsAcknowledgedParams>;
