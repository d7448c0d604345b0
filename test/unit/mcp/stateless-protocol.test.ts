import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import {
  DiscoverResult,
  ElicitRequestParams,
  ElicitResult,
  InputRequiredResult,
  ListRootsResult,
  LOGGING_LEVELS,
  MetaKey,
  ModernErrorCode,
  MODERN_PROTOCOL_VERSION,
  SubscriptionFilter,
  SubscriptionsAcknowledgedParams,
} from "../../../src/mcp/stateless-protocol.ts";

const ok = <T extends v.GenericSchema>(schema: T, value: unknown) => v.parse(schema, value);
const bad = (schema: v.GenericSchema, value: unknown) => expect(v.safeParse(schema, value).success).toBe(false);

describe("the 2026-07-28 vocabulary", () => {
  test("the version, _meta keys and error codes are the spec's", () => {
    expect(MODERN_PROTOCOL_VERSION).toBe("2026-07-28");
    expect(MetaKey.protocolVersion).toBe("io.modelcontextprotocol/protocolVersion");
    expect(MetaKey.clientCapabilities).toBe("io.modelcontextprotocol/clientCapabilities");
    expect(MetaKey.clientInfo).toBe("io.modelcontextprotocol/clientInfo");
    expect(MetaKey.logLevel).toBe("io.modelcontextprotocol/logLevel");
    expect(MetaKey.serverInfo).toBe("io.modelcontextprotocol/serverInfo");
    expect(MetaKey.subscriptionId).toBe("io.modelcontextprotocol/subscriptionId");
    expect(ModernErrorCode).toEqual({ HeaderMismatch: -32020, MissingRequiredClientCapability: -32021, UnsupportedProtocolVersion: -32022 });
    expect(LOGGING_LEVELS.indexOf("warning")).toBeLessThan(LOGGING_LEVELS.indexOf("error"));
  });

  test("a discover result gives versions, capabilities, instructions and serverInfo in _meta; unknown fields pass", () => {
    const result = ok(DiscoverResult, {
      resultType: "complete",
      supportedVersions: ["2026-07-28", "2025-11-25"],
      capabilities: { tools: { listChanged: true } },
      instructions: "Use the tools.",
      ttlMs: 0,
      cacheScope: "public",
      _meta: { [MetaKey.serverInfo]: { name: "demo", version: "1.0.0" } },
    });
    expect(result.supportedVersions).toEqual(["2026-07-28", "2025-11-25"]);
    expect(result._meta?.[MetaKey.serverInfo]?.name).toBe("demo");
    expect(result.ttlMs).toBe(0);
    expect(ok(DiscoverResult, { supportedVersions: [] }).capabilities).toEqual({});
    bad(DiscoverResult, { capabilities: {} });
    bad(DiscoverResult, { supportedVersions: "2026-07-28" });
    bad(DiscoverResult, { supportedVersions: Array.from({ length: 65 }, (_, i) => `v${i}`) });
  });

  test("the spec's input-required example parses; its embedded methods are the three of MRTR", () => {
    const result = ok(InputRequiredResult, {
      resultType: "input_required",
      inputRequests: {
        github_login: { method: "elicitation/create", params: { mode: "form", message: "login?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } },
        capital_of_france: { method: "sampling/createMessage", params: { messages: [], maxTokens: 100 } },
        roots: { method: "roots/list" },
      },
      requestState: "AEAD-protected blob",
    });
    expect(Object.keys(result.inputRequests ?? {})).toEqual(["github_login", "capital_of_france", "roots"]);
    bad(InputRequiredResult, { resultType: "input_required", inputRequests: { x: { method: "ping" } } });
    bad(InputRequiredResult, { resultType: "complete" });
    bad(InputRequiredResult, { resultType: "input_required", requestState: 1 });
  });

  test("elicitation params: a form (mode form or absent) or a URL", () => {
    const form = { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string", default: "x" } }, required: ["name"] } };
    expect(ok(ElicitRequestParams, form).message).toBe("Name?");
    expect(ok(ElicitRequestParams, { ...form, mode: "form" }).mode).toBe("form");
    const url = ok(ElicitRequestParams, { mode: "url", message: "Sign in", url: "https://example.com/login" });
    expect(url.mode === "url" && url.url).toBe("https://example.com/login");
    bad(ElicitRequestParams, { mode: "url", message: "Sign in" });
    bad(ElicitRequestParams, { message: "Name?", requestedSchema: { type: "array" } });
    bad(ElicitRequestParams, { mode: "carrier-pigeon", message: "?", url: "x" });
  });

  test("elicitation results: accept with content, decline, cancel", () => {
    expect(ok(ElicitResult, { action: "accept", content: { name: "octocat", n: 1, yes: true, tags: ["a"] } }).action).toBe("accept");
    expect(ok(ElicitResult, { action: "decline" }).content).toBeUndefined();
    ok(ElicitResult, { action: "cancel" });
    bad(ElicitResult, { action: "maybe" });
    bad(ElicitResult, { action: "accept", content: { nested: { no: 1 } } });
  });

  test("roots are file:// URIs", () => {
    expect(ok(ListRootsResult, { roots: [{ uri: "file:///work", name: "work" }] }).roots).toHaveLength(1);
    bad(ListRootsResult, { roots: [{ uri: "https://example.com" }] });
  });

  test("progress and log notifications", () => {
  });

  test("subscription filters and their acknowledgement", () => {
    const filter = { toolsListChanged: true, resourceSubscriptions: ["file:///a"] };
    expect(ok(SubscriptionFilter, filter)).toEqual(filter);
    expect(ok(SubscriptionsAcknowledgedParams, { notifications: { toolsListChanged: true } }).notifications.toolsListChanged).toBe(true);
    bad(SubscriptionFilter, { toolsListChanged: "yes" });
    bad(SubscriptionsAcknowledgedParams, {});
  });
});
