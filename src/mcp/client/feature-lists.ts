import * as v from "valibot";
import { log } from "../../log.ts";
import { McpError } from "../mcp-error.ts";
import { ErrorCode, Prompt, Resource, ResourceTemplate } from "../protocol.ts";
import { exceedsDepth, MAX_TOOL_DEPTH } from "../../system/json-depth.ts";
import { CachedList } from "./cached-list.ts";
import { fetchAllPages } from "./paged-list.ts";

/** The largest list entry kept: a resource or a prompt is a name and a few lines, never megabytes. */
export const MAX_LIST_ENTRY_CHARS = 64 * 1024;
/** What one list may hold in all (as JSON text): past that it is refused, as past 100,000 items. */
export const MAX_LIST_CHARS = 64 * 2 ** 20;

/** Sends one request of the client's (its timeout, era params, session renewal). */
type Send = (method: string, params: Record<string, unknown>) => Promise<unknown>;

/**
 * The resource, resource-template and prompt lists of one server: all pages, each item checked
 * on its own against its schema (a bad one is left out with a debug line, never the whole list),
 * cached until the matching `list_changed` notification.
 */
export class FeatureLists {
  private readonly resourceList = new CachedList<Resource>();
  private readonly templateList = new CachedList<ResourceTemplate>();
  private readonly promptList = new CachedList<Prompt>();

  constructor(
    /** For debug lines: the server's config name. */
    private readonly server: string,
  ) {}

  resources(send: Send): Promise<Resource[]> {
    return this.resourceList.get(() => this.fetch(send, "resources/list", "resources", Resource));
  }

  templates(send: Send): Promise<ResourceTemplate[]> {
    return this.templateList.get(() => this.fetch(send, "resources/templates/list", "resourceTemplates", ResourceTemplate));
  }

  prompts(send: Send): Promise<Prompt[]> {
    return this.promptList.get(() => this.fetch(send, "prompts/list", "prompts", Prompt));
  }

  /** A server notification: a `list_changed` drops the lists it concerns. */
  heard(method: string): void {
    if (method === "notifications/resources/list_changed") {
      this.resourceList.drop();
      this.templateList.drop();
    }
    if (method === "notifications/prompts/list_changed") this.promptList.drop();
  }

  private fetch<TSchema extends v.GenericSchema>(send: Send, method: string, field: string, schema: TSchema): Promise<v.InferOutput<TSchema>[]> {
    const budget = { chars: MAX_LIST_CHARS };
    return fetchAllPages({
      method,
      field,
      request: (params) => send(method, params),
      accept: (raws, offset) => {
        const kept = checkItems(schema, raws, offset, budget, (index, why) => log.debug(`${this.server}: ${method} item #${index + 1} is left out: ${why}`));
        if (budget.chars < 0) throw new McpError(ErrorCode.InvalidResult, `${method} holds more than ${MAX_LIST_CHARS / 2 ** 20} MB; the list was refused`);
        return kept;
      },
    });
  }
}

/**
 * The items that pass `schema`, each checked on its own: depth first (nothing may meet one that
 * overflows the stack), then size (each at most MAX_LIST_ENTRY_CHARS; what is kept is taken from
 * `budget.chars`, which the caller checks), then shape.
 */
export function checkItems<TSchema extends v.GenericSchema>(
  schema: TSchema,
  raws: unknown[],
  offset: number,
  budget: { chars: number },
  leftOut: (index: number, why: string) => void,
): v.InferOutput<TSchema>[] {
  const kept: v.InferOutput<TSchema>[] = [];
  raws.forEach((raw, index) => {
    if (exceedsDepth(raw, MAX_TOOL_DEPTH)) return leftOut(offset + index, `nested deeper than ${MAX_TOOL_DEPTH} levels`);
    const size = JSON.stringify(raw)?.length ?? 0;
    if (size > MAX_LIST_ENTRY_CHARS) return leftOut(offset + index, `its entry is ${size.toLocaleString("en-US")} characters, more than the ${MAX_LIST_ENTRY_CHARS / 1024} KB allowed`);
    const parsed = v.safeParse(schema, raw);
    if (parsed.success) {
      budget.chars -= size;
      return void kept.push(parsed.output);
    }
    const issue = parsed.issues[0];
    const path = issue ? v.getDotPath(issue) : null;
    leftOut(offset + index, `invalid${path ? ` at "${path.slice(0, 120)}"` : ""}: ${issue?.message.slice(0, 200) ?? "unknown problem"}`);
  });
  return kept;
}
