import type { ToolDefinition } from "../protocol.ts";
import { buildParamHeaders, checkParamHeaders, type ParamHeader } from "./mcp-param-headers.ts";
import type { RejectedTool } from "./tool-definitions.ts";

/**
 * The `x-mcp-header` markings of one server's tools, as its last complete tools/list gave them
 * (2026-07-28 over HTTP only: stdio carries no headers). A tool whose markings break the rules is
 * left out of the listing, as the spec requires of an HTTP client; the others' calls carry their
 * marked arguments as `Mcp-Param-*` headers.
 */
export class ToolParamMarks {
  private current = new Map<string, ParamHeader[]>();
  private next = new Map<string, ParamHeader[]>();

  /** A new listing starts: what it finds replaces the old markings once it is complete. */
  begin(): void {
    this.next = new Map();
  }

  /** Whether `tool` may be listed; a tool with invalid markings goes to `reject` with the reason. */
  admit(tool: ToolDefinition, reject: (rejected: RejectedTool) => void): boolean {
    const marked = checkParamHeaders(tool.inputSchema);
    if (!marked.ok) {
      reject({ name: tool.name.slice(0, 100), reason: marked.reason });
      return false;
    }
    if (marked.headers.length > 0) this.next.set(tool.name, marked.headers);
    return true;
  }

  /** The listing is complete: its markings are the ones calls use from now on. */
  finish(): void {
    this.current = this.next;
  }

  /** The headers of a call of `name` with `args`; undefined for a tool with no markings. */
  headersFor(name: string, args: Record<string, unknown>): Record<string, string> | undefined {
    const declared = this.current.get(name);
    return declared ? buildParamHeaders(declared, args) : undefined;
  }
}
