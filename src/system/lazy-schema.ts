import * as v from "valibot";

/**
 * A schema built at its first use instead of when its module loads. Building valibot schemas costs
 * CPU at load (~1.5 ms for the MCP and keeper protocols), and a warm command reads only a few of
 * them (issue 32): the rest wait until something parses with them. Used like any schema (parse, is,
 * or inside another); only its `entries` or `options` cannot be read.
 */
export function lazySchema<TSchema extends v.GenericSchema>(build: () => TSchema): v.LazySchema<TSchema> {
  let schema: TSchema | undefined;
  return v.lazy(() => (schema ??= build()));
}
