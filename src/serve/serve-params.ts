/**
 * The params of the requests a client of `mcp serve` sends, as valibot schemas: parsed once where a
 * request arrives, so a malformed one is an InvalidParams error that names what was wrong.
 */
import * as v from "valibot";
import { issuePath } from "../system/schema-issue.ts";
import { WholeObject } from "../system/whole-object.ts";
import { McpError } from "../mcp/light-index.ts";
import { ErrorCode } from "../mcp/protocol.ts";

/** Longer than any real name, URI or argument value; a client sending more is refused. */
const MAX_NAME_CHARS = 1024;
const MAX_URI_CHARS = 64 * 1024;

const Name = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(MAX_NAME_CHARS, `must be at most ${MAX_NAME_CHARS} characters`));
const Uri = v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(MAX_URI_CHARS, `must be at most ${MAX_URI_CHARS} characters`));
const Cursor = v.optional(v.string());

export const ListParams = v.optional(v.looseObject({ cursor: Cursor }), {});

export const CallToolParams = v.looseObject({
  name: Name,
  arguments: v.optional(WholeObject, {}),
});

export const ReadResourceParams = v.looseObject({ uri: Uri });

export const GetPromptParams = v.looseObject({
  name: Name,
  arguments: v.optional(v.record(v.string(), v.string()), {}),
});

export const CompleteParams = v.looseObject({
  ref: v.variant("type", [
    v.looseObject({ type: v.literal("ref/prompt"), name: Name }),
    v.looseObject({ type: v.literal("ref/resource"), uri: Uri }),
  ]),
  argument: v.looseObject({ name: Name, value: v.pipe(v.string(), v.maxLength(MAX_URI_CHARS)) }),
  context: v.optional(v.looseObject({ arguments: v.optional(v.record(v.string(), v.string())) })),
});

export const InitializeParams = v.looseObject({
  protocolVersion: v.string(),
  capabilities: v.optional(v.looseObject({}), {}),
  clientInfo: v.optional(v.looseObject({ name: v.string() })),
});

export const SetLevelParams = v.looseObject({ level: v.string() });

/** `params` checked against `schema`; an InvalidParams error naming the field and the problem otherwise. */
export function parseParams<TSchema extends v.GenericSchema>(schema: TSchema, params: unknown, method: string): v.InferOutput<TSchema> {
  const parsed = v.safeParse(schema, params);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const path = issuePath(issue);
  throw new McpError(ErrorCode.InvalidParams, `invalid params for ${method}${path ? ` (${path})` : ""}: ${issue.message}`);
}
