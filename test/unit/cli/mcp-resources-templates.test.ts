import { describe, expect, test } from "bun:test";
import { expandUriTemplate, isUriTemplate, templateVariables } from "../../../src/cli/mcp/uri-template-arguments.ts";
import { CliError, ExitCode } from "../../../src/terminal/cli-error.ts";

/** The usage error `run` throws, or a failure when it throws none. */
function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(ExitCode.Usage);
    return (error as CliError).message;
  }
  throw new Error("expected a usage error");
}

describe("resource template URIs for mcp read", () => {
  test("a URI with { is a template; its variables come in order, query ones optional", () => {
    expect(isUriTemplate("file:///{path}")).toBe(true);
    expect(isUriTemplate("file:///README.md")).toBe(false);
    expect(templateVariables("demo://{a}/{+b}{/c*}{?lang,page}{&x:3}")).toEqual([
      { name: "a", optional: false },
      { name: "b", optional: false },
      { name: "c", optional: false },
      { name: "lang", optional: true },
      { name: "page", optional: true },
      { name: "x", optional: true },
    ]);
  });

  test("key=value pairs fill it in, percent-encoded as RFC 6570 says", () => {
    expect(expandUriTemplate("file:///{path}", ["path=README.md"])).toBe("file:///README.md");
    expect(expandUriTemplate("fixture://greeting/{name}{?lang}", ["name=Ann Lee", "lang=fr"])).toBe("fixture://greeting/Ann%20Lee?lang=fr");
    expect(expandUriTemplate("fixture://greeting/{name}{?lang}", ["name=a/b"])).toBe("fixture://greeting/a%2Fb");
    expect(expandUriTemplate("file:///{+path}", ["path=src/a b.ts"])).toBe("file:///src/a%20b.ts");
  });

  test("a missing variable is a usage error naming it and the template's variables", () => {
    const message = usageError(() => expandUriTemplate("demo://resource/dynamic/text/{resourceId}{?lang}", []));
    expect(message).toContain("missing template variable 'resourceId': add resourceId=...");
    expect(message).toContain("variables: resourceId*, lang");
  });

  test("an unknown variable, a repeated one, or a pair without = is a usage error", () => {
    expect(usageError(() => expandUriTemplate("file:///{path}", ["pth=x"]))).toContain("unknown variable 'pth'. Did you mean: path?");
    expect(usageError(() => expandUriTemplate("file:///{path}", ["path=a", "path=b"]))).toContain("'path' is given twice");
    expect(usageError(() => expandUriTemplate("file:///{path}", ["README.md"]))).toContain("expected key=value, got 'README.md'");
  });

  test("a variable named like an Object property is a variable like any other", () => {
    expect(expandUriTemplate("x://{constructor}/{__proto__}", ["constructor=a", "__proto__=b"])).toBe("x://a/b");
    expect(usageError(() => expandUriTemplate("x://{constructor}", []))).toContain("missing template variable 'constructor'");
  });

  test("a malformed template is a usage error saying what is wrong", () => {
    expect(usageError(() => templateVariables("file:///{path"))).toContain("a '{' without its '}'");
    expect(usageError(() => templateVariables("file:///path}"))).toContain("a '}' without its '{'");
    expect(usageError(() => templateVariables("file:///{}"))).toContain("no usable variable name");
    expect(usageError(() => templateVariables("file:///{=x}"))).toContain("no usable variable name");
  });
});
