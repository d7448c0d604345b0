import { describe, expect, test } from "bun:test";
import { buildParamHeaders, checkParamHeaders, MAX_PARAM_HEADERS, type ParamHeader } from "../../../../src/mcp/client/mcp-param-headers.ts";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";

/** An object schema with these properties. */
const schema = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({ type: "object", properties, ...more });

function headersOf(inputSchema: unknown): ParamHeader[] {
  const check = checkParamHeaders(inputSchema);
  if (!check.ok) throw new Error(`expected valid markings, got: ${check.reason}`);
  return check.headers;
}

function reasonOf(inputSchema: unknown): string {
  const check = checkParamHeaders(inputSchema);
  if (check.ok) throw new Error(`expected invalid markings, got ${JSON.stringify(check.headers)}`);
  return check.reason;
}

describe("checkParamHeaders: valid markings", () => {
  test("the spec's execute_sql example marks region as Mcp-Param-Region", () => {
    const inputSchema = schema(
      {
        region: { type: "string", description: "The region to execute the query in", "x-mcp-header": "Region" },
        query: { type: "string", description: "The SQL query to execute" },
      },
      { required: ["region", "query"] },
    );
    expect(headersOf(inputSchema)).toEqual([{ path: ["region"], headerName: "Region", type: "string" }]);
  });

  test("string, integer and boolean properties may be marked", () => {
    const headers = headersOf(
      schema({ a: { type: "string", "x-mcp-header": "A" }, n: { type: "integer", "x-mcp-header": "N" }, b: { type: "boolean", "x-mcp-header": "B" } }),
    );
    expect(headers.map((header) => header.type)).toEqual(["string", "integer", "boolean"]);
  });

  test("a property nested through properties alone is reachable, at its full path", () => {
    const headers = headersOf(schema({ target: { type: "object", properties: { zone: { type: "string", "x-mcp-header": "Zone" } } } }));
    expect(headers).toEqual([{ path: ["target", "zone"], headerName: "Zone", type: "string" }]);
  });

  test("every RFC 9110 token character is allowed in a name", () => {
    expect(headersOf(schema({ a: { type: "string", "x-mcp-header": "A1!#$%&'*+-.^_`|~z" } }))[0]?.headerName).toBe("A1!#$%&'*+-.^_`|~z");
  });

  test("a schema without markings, or no schema at all, marks nothing", () => {
    expect(headersOf(schema({ q: { type: "string" } }))).toEqual([]);
    expect(headersOf(undefined)).toEqual([]);
    expect(headersOf({ type: "object" })).toEqual([]);
  });

  test("an x-mcp-header key inside data (default, const, examples) or a property named x-mcp-header is no marking", () => {
    const inputSchema = schema({
      settings: { type: "object", default: { "x-mcp-header": "Nope" }, examples: [{ "x-mcp-header": 1 }] },
      "x-mcp-header": { type: "string" },
    });
    expect(headersOf(inputSchema)).toEqual([]);
  });
});

describe("checkParamHeaders: invalid markings leave the tool out, naming the property", () => {
  test.each([
    ["empty", "", "must be a non-empty string"],
    ["a number", 7, "must be a non-empty string"],
    ["a space", "My Region", "not a valid header name"],
    ["a colon", "Region:Primary", "not a valid header name"],
    ["non-ASCII", "Région", "not a valid header name"],
    ["CR LF", "Region\r\nX-Evil", "not a valid header name"],
    ["a control character", "Reg\u0001ion", "not a valid header name"],
  ])("a name that is %s", (_, name, why) => {
    const reason = reasonOf(schema({ value: { type: "string", "x-mcp-header": name } }));
    expect(reason).toContain(why);
    expect(reason).toContain('property "value"');
    expect(reason).not.toMatch(/[\r\n\u0001]/);
  });

  test.each([
    ["number", { type: "number" }],
    ["object", { type: "object" }],
    ["array", { type: "array", items: { type: "string" } }],
    ["null", { type: "null" }],
    ["absent", {}],
    ["a list of types", { type: ["string", "null"] }],
  ])("a property of type %s", (_, property) => {
    const reason = reasonOf(schema({ score: { ...property, "x-mcp-header": "Score" } }));
    expect(reason).toContain('property "score"');
    expect(reason).toContain("must be string, integer or boolean");
  });

  test("the same name twice, in the same or another case", () => {
    expect(reasonOf(schema({ f1: { type: "string", "x-mcp-header": "Region" }, f2: { type: "string", "x-mcp-header": "Region" } }))).toContain("repeats");
    const reason = reasonOf(schema({ f1: { type: "string", "x-mcp-header": "MyField" }, f2: { type: "string", "x-mcp-header": "myfield" } }));
    expect(reason).toContain('property "f2"');
    expect(reason).toContain('repeats "MyField"');
  });

  test("a marking on the root schema", () => {
    expect(reasonOf({ type: "object", "x-mcp-header": "Root" })).toContain("the root of its input schema");
  });

  const marked = { type: "string", "x-mcp-header": "Hidden" };
  test.each([
    ["items", schema({ list: { type: "array", items: marked } })],
    ["draft-07 items lists", schema({ list: { type: "array", items: [marked] } })],
    ["prefixItems", schema({ list: { type: "array", prefixItems: [marked] } })],
    ["oneOf", schema({}, { oneOf: [schema({ a: marked })] })],
    ["anyOf", schema({ a: { anyOf: [marked, { type: "null" }] } })],
    ["allOf", schema({}, { allOf: [schema({ a: marked })] })],
    ["not", schema({ a: { not: marked } })],
    ["if", schema({}, { if: schema({ a: marked }) })],
    ["then", schema({}, { then: schema({ a: marked }) })],
    ["else", schema({}, { else: schema({ a: marked }) })],
    ["$defs (what a $ref points at)", schema({ a: { $ref: "#/$defs/region" } }, { $defs: { region: marked } })],
    ["definitions", schema({ a: { $ref: "#/definitions/region" } }, { definitions: { region: marked } })],
    ["additionalProperties", schema({}, { additionalProperties: marked })],
    ["patternProperties", schema({}, { patternProperties: { "^x": marked } })],
    ["dependentSchemas", schema({}, { dependentSchemas: { a: schema({ b: marked }) } })],
  ])("a marking reached through %s", (_, inputSchema) => {
    expect(reasonOf(inputSchema)).toContain('only a property reached through "properties" alone may be marked');
  });
});

describe("checkParamHeaders: bounded", () => {
  test("a schema nested thousands of levels deep is invalid at once, without a stack overflow", () => {
    let deep: Record<string, unknown> = { type: "string", "x-mcp-header": "Deep" };
    for (let i = 0; i < 100_000; i++) deep = { type: "object", properties: { p: deep } };
    expect(reasonOf(deep)).toContain("nested deeper than 64 levels");
  });

  test("thousands of markings are invalid", () => {
    const properties = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, { type: "string", "x-mcp-header": `P${i}` }]));
    expect(reasonOf(schema(properties))).toContain(`more than ${MAX_PARAM_HEADERS} properties`);
  });

  test(`exactly ${MAX_PARAM_HEADERS} markings are fine`, () => {
    const properties = Object.fromEntries(Array.from({ length: MAX_PARAM_HEADERS }, (_, i) => [`p${i}`, { type: "string", "x-mcp-header": `P${i}` }]));
    expect(headersOf(schema(properties))).toHaveLength(MAX_PARAM_HEADERS);
  });

  test("a million subschemas are invalid, quickly", () => {
    const wide = schema({}, { anyOf: Array.from({ length: 1_000_000 }, () => ({ type: "string" })) });
    const started = performance.now();
    expect(reasonOf(wide)).toContain("more than 10000 subschemas");
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe("buildParamHeaders", () => {
  // The tool of the conformance suite's http-custom-headers scenario, with its arguments.
  const tool = headersOf(
    schema({
      region: { type: "string", "x-mcp-header": "Region" },
      priority: { type: "integer", "x-mcp-header": "Priority" },
      verbose: { type: "boolean", "x-mcp-header": "Verbose" },
      debug: { type: "boolean", "x-mcp-header": "Debug" },
      empty_val: { type: "string", "x-mcp-header": "EmptyVal" },
      method_val: { type: "string", "x-mcp-header": "Method" },
      float_val: { type: "number" },
      non_ascii_val: { type: "string", "x-mcp-header": "NonAscii" },
      crlf_val: { type: "string", "x-mcp-header": "Crlf" },
      internal_space_val: { type: "string", "x-mcp-header": "InternalSpace" },
      query: { type: "string" },
    }),
  );

  test("each marked value is converted and encoded; unmarked ones send nothing", () => {
    const headers = buildParamHeaders(tool, {
      region: "us-west1",
      priority: 42,
      verbose: false,
      debug: true,
      empty_val: "",
      method_val: "test-method",
      float_val: 3.14159,
      non_ascii_val: "Hello, 世界",
      crlf_val: "line1\r\nline2",
      internal_space_val: "us west 1",
      query: "SELECT * FROM users",
    });
    expect(headers).toEqual({
      "Mcp-Param-Region": "us-west1",
      "Mcp-Param-Priority": "42",
      "Mcp-Param-Verbose": "false",
      "Mcp-Param-Debug": "true",
      "Mcp-Param-EmptyVal": "=?base64??=",
      "Mcp-Param-Method": "test-method",
      "Mcp-Param-NonAscii": "=?base64?SGVsbG8sIOS4lueVjA==?=",
      "Mcp-Param-Crlf": `=?base64?${Buffer.from("line1\r\nline2").toString("base64")}?=`,
      "Mcp-Param-InternalSpace": "us west 1",
    });
  });

  test("a null or absent value sends no header", () => {
    expect(buildParamHeaders(tool, { region: "us-east1", priority: 1, verbose: null })).toEqual({
      "Mcp-Param-Region": "us-east1",
      "Mcp-Param-Priority": "1",
    });
    expect(buildParamHeaders(tool, undefined)).toEqual({});
  });

  test("negative integers are decimal", () => {
    expect(buildParamHeaders(tool, { priority: -7 })).toEqual({ "Mcp-Param-Priority": "-7" });
  });

  test("a value at a nested path is read there, and only from the arguments' own keys", () => {
    const nested = headersOf(schema({ target: { type: "object", properties: { zone: { type: "string", "x-mcp-header": "Zone" } } } }));
    expect(buildParamHeaders(nested, { target: { zone: "eu-1" } })).toEqual({ "Mcp-Param-Zone": "eu-1" });
    expect(buildParamHeaders(nested, { target: "eu-1" })).toEqual({});
    expect(buildParamHeaders(nested, { target: Object.create({ zone: "inherited" }) })).toEqual({});
  });

  test("an object or array where a primitive is declared sends no header (the server validates arguments)", () => {
    expect(buildParamHeaders(tool, { region: { a: 1 }, priority: [1] })).toEqual({});
  });

  test("an integer beyond the safe range is refused, naming the argument", () => {
    let error: unknown;
    try {
      buildParamHeaders(tool, { priority: 2 ** 60 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toContain('argument "priority"');
    expect((error as McpError).message).toContain("Mcp-Param-Priority");
  });
});
