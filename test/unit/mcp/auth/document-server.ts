import type { ScriptedServer } from "../../../../fixtures/http/scripted-server.ts";
import { scriptedServers } from "../../../helpers/scripted-servers.ts";

/** What a path answers: a JSON document, or a Response built anew for each request. */
export type Answer = object | (() => Response);

/**
 * For discovery tests: `documents(origin => ({ path: answer }))` starts a real HTTP server on
 * 127.0.0.1 that answers GETs of those paths (path and query, as asked) and 404 for every other,
 * and records every path asked, in order (`asked(server)`). Servers stop after each test.
 */
export function documentServers(): { documents(routes: (origin: string) => Record<string, Answer>): ScriptedServer; asked(server: ScriptedServer): string[] } {
  const { serve } = scriptedServers();
  const documents = (routes: (origin: string) => Record<string, Answer>) =>
    serve((request, server) => {
      const answer = routes(server.origin)[request.path];
      if (answer === undefined) return new Response("Not Found", { status: 404 });
      return typeof answer === "function" ? (answer as () => Response)() : Response.json(answer);
    });
  const asked = (server: ScriptedServer) => server.requests.map((request) => request.path);
  return { documents, asked };
}
