import { McpError } from "../mcp-error.ts";
import { type Completion, type CompletionReference, GetPromptResult, type Prompt, ReadResourceResult, type Resource, type ResourceTemplate } from "../protocol.ts";
import type { CallOptions, RequestOptions } from "./client-options.ts";
import { boundedCompletion } from "./completion-values.ts";
import { FeatureLists } from "./feature-lists.ts";
import { parseResult } from "./parse-result.ts";
import type { ResourceSubscriptions } from "./resource-subscriptions.ts";
import type { ServerFeature } from "./server-features.ts";

/** What FeatureRequests needs of its client. */
export interface FeatureRequestsClient {
  /** Whether the server declared the feature (see McpClient.offers). */
  offers(feature: ServerFeature): boolean;
  /** Who the refusal of an undeclared feature names: the config name, else what the server calls itself. */
  name(): string;
  /** One request of the client's (its timeout, era params, session renewal). */
  request(method: string, params: unknown, options: RequestOptions): Promise<unknown>;
  /** A request that a 2026-07-28 server may answer "input required" (answered as for tools/call). */
  sendAnswering(method: string, params: Record<string, unknown>, options: RequestOptions): Promise<unknown>;
}

/**
 * The resources, prompts and completions of one server, each asked only of a server that declared
 * it (otherwise refused, sending nothing): the lists paged and cached (FeatureLists) until their
 * `list_changed`, reads and prompts a 2026-07-28 server may answer with input requests first,
 * subscriptions in either era (ResourceSubscriptions), completions bounded. McpClient's methods of
 * the same names come here.
 */
export class FeatureRequests {
  private readonly lists: FeatureLists;

  constructor(
    private readonly client: FeatureRequestsClient,
    private readonly subscriptions: ResourceSubscriptions,
    /** For debug lines: the server's config name. */
    server: string,
  ) {
    this.lists = new FeatureLists(server);
  }

  /** A server notification: a `list_changed` drops the cached lists it concerns. */
  heard(method: string): void {
    this.lists.heard(method);
  }

  listResources(options: CallOptions): Promise<Resource[]> {
    return this.offered("resources", () => this.lists.resources(this.sender(options)));
  }

  listResourceTemplates(options: CallOptions): Promise<ResourceTemplate[]> {
    return this.offered("resources", () => this.lists.templates(this.sender(options)));
  }

  readResource(uri: string, options: CallOptions): Promise<ReadResourceResult> {
    return this.offered("resources", async () => {
      return parseResult(ReadResourceResult, await this.client.sendAnswering("resources/read", { uri }, answeringOptions(options)), "resources/read");
    });
  }

  subscribeResource(uri: string, options: CallOptions): Promise<void> {
    return this.offered("resourceSubscriptions", () => this.subscriptions.subscribe(uri, callOptions(options)));
  }

  unsubscribeResource(uri: string, options: CallOptions): Promise<void> {
    return this.offered("resourceSubscriptions", () => this.subscriptions.unsubscribe(uri, callOptions(options)));
  }

  listPrompts(options: CallOptions): Promise<Prompt[]> {
    return this.offered("prompts", () => this.lists.prompts(this.sender(options)));
  }

  getPrompt(name: string, args: Record<string, string>, options: CallOptions): Promise<GetPromptResult> {
    return this.offered("prompts", async () => {
      return parseResult(GetPromptResult, await this.client.sendAnswering("prompts/get", { name, arguments: args }, answeringOptions(options)), "prompts/get");
    });
  }

  complete(ref: CompletionReference, argument: { name: string; value: string }, options: CallOptions & { context?: Record<string, string> }): Promise<Completion> {
    const params = { ref, argument, ...(options.context && { context: { arguments: options.context } }) };
    return this.offered("completions", async () => boundedCompletion(await this.client.request("completion/complete", params, callOptions(options))));
  }

  /** Rejects, sending nothing, when the server did not declare `feature`. */
  private offered<T>(feature: ServerFeature, run: () => Promise<T>): Promise<T> {
    if (this.client.offers(feature)) return run();
    return Promise.reject(McpError.notOffered(this.client.name(), feature));
  }

  private sender(options: CallOptions): (method: string, params: Record<string, unknown>) => Promise<unknown> {
    return (method, params) => this.client.request(method, params, callOptions(options));
  }
}

/** Only the timeout and the signal: the lists and reads take no progress. */
function callOptions(options: CallOptions): RequestOptions {
  return { timeoutMs: options.timeoutMs, signal: options.signal };
}

/** A request that may ask for input (resources/read, prompts/get): also the caller's capabilities. */
function answeringOptions(options: CallOptions): RequestOptions {
  return { ...callOptions(options), clientCapabilities: options.clientCapabilities };
}
