import * as v from "valibot";
import { log } from "../../log.ts";
import { Prompt, Resource, ResourceTemplate } from "../protocol.ts";
import { exceedsDepth, MAX_TOOL_DEPTH } from "../../system/json-depth.ts";
import { fetchAllPages } from "./paged-list.ts";

/** Sends one request of the client's (its timeout, era params, session renewal). */
type Send = (method: string, params: Record<string, unknown>) => Promise<unknown>;

/**
 * A list asked once per connection: concurrent callers share the one request in flight; a failed
 * one is forgotten (the next caller asks again); `drop` forgets it when the server says it changed.
 */
export class CachedList<T> {
  private pending: Promise<T[]> | undefined;

  get(fetch: () => Promise<T[]>): Promise<T[]> {
    if (this.pending) return this.pending;
    const pending = fetch();
    this.pending = pending;
    // Only this request is forgotten: one asked after a `drop` stays.
    pending.catch(() => {
      if (this.pending === pending) this.pending = undefined;
    });
    return pending;
  }

  drop(): void {
    this.pending = undefined;
  }
}

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
    return fetchAllPages({
      method,
      field,
      request: (params) => send(method, params),
      accept: (raws, offset) => checkItems(schema, raws, offset, (index, why) => log.debug(`${this.server}: ${method} item #${index + 1} is left out: ${why}`)),
    });
  }
}

/** The items that pass `schema`, each checked on its own, depth first (nothing may meet one that overflows the stack). */
export function checkItems<TSchema extends v.GenericSchema>(
  schema: TSchema,
  raws: unknown[],
  offset: number,
  leftOut: (index: number, why: string) => void,
): v.InferOutput<TSchema>[] {
  const kept: v.InferOutput<TSchema>[] = [];
  raws.forEach((raw, index) => {
    if (exceedsDepth(raw, MAX_TOOL_DEPTH)) return leftOut(offset + index, `nested deeper than ${MAX_TOOL_DEPTH} levels`);
    const parsed = v.safeParse(schema, raw);
    if (parsed.success) return void kept.push(parsed.output);
    const issue = parsed.issues[0];
    const path = issue ? v.getDotPath(issue) : null;
    leftOut(offset + index, `invalid${path ? ` at "${path.slice(0, 120)}"` : ""}: ${issue?.message.slice(0, 200) ?? "unknown problem"}`);
  });
  return kept;
}
