import * as v from "valibot";
import { McpError } from "../mcp/light-index.ts";
import type { ServerPool } from "../mcp/index.ts";
import { ErrorCode, type RequestId } from "../mcp/protocol.ts";
import { MetaKey, SubscriptionFilter } from "../mcp/stateless-protocol.ts";
import { announceListChanges } from "./list-announcements.ts";
import { MAX_SUBSCRIPTIONS_PER_CLIENT, type ServedSubscriptions, type Subscriber } from "./served-subscriptions.ts";

const ListenParams = v.looseObject({ notifications: SubscriptionFilter });

/** Which list a `list_changed` notification names, and the filter flag that opts in to it. */
const LIST_FLAGS: Record<string, "toolsListChanged" | "resourcesListChanged" | "promptsListChanged"> = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
};

/**
 * `subscriptions/listen` of a 2026-07-28 client: the revision's one way to hear of changes. The
 * stream is acknowledged first with the part of the filter honoured (every list change asked for,
 * and the resources some server answers for, subscribed upstream), then carries those
 * notifications, each tagged with the listen request's id, until the client closes it (`signal`).
 * A URI no connected server answers for is left out of the acknowledgement, not an error.
 */
export async function listen(
  id: RequestId | undefined,
  params: unknown,
  context: { signal: AbortSignal; notify(method: string, params: Record<string, unknown>): void; pool: ServerPool; subscriptions: ServedSubscriptions },
): Promise<never> {
  const parsed = v.safeParse(ListenParams, params);
  if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, "subscriptions/listen needs params.notifications: which changes to hear");
  const filter = parsed.output.notifications;
  const tag = { _meta: { [MetaKey.subscriptionId]: id } };
  const { signal, notify, subscriptions } = context;
  const subscriber: Subscriber = { updated: (uri) => notify("notifications/resources/updated", { uri, ...tag }) };
  const uris: string[] = [];
  for (const uri of new Set((filter.resourceSubscriptions ?? []).slice(0, MAX_SUBSCRIPTIONS_PER_CLIENT))) {
    try {
      await subscriptions.subscribe(uri, subscriber, signal);
      uris.push(uri);
    } catch {
      // Not honoured: the acknowledgement says which were.
    }
  }
  const honoured = {
    ...(filter.toolsListChanged === true && { toolsListChanged: true }),
    ...(filter.resourcesListChanged === true && { resourcesListChanged: true }),
    ...(filter.promptsListChanged === true && { promptsListChanged: true }),
    ...(uris.length > 0 && { resourceSubscriptions: uris }),
  };
  notify("notifications/subscriptions/acknowledged", { notifications: honoured, ...tag });
  const stop = announceListChanges(context.pool, (method) => {
    const flag = LIST_FLAGS[method];
    if (flag && honoured[flag]) notify(method, { ...tag });
  });
  try {
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener("abort", () => resolve(), { once: true });
    });
  } finally {
    stop();
    subscriptions.release(subscriber);
  }
  throw McpError.cancelled("subscriptions/listen");
}
