import { afterEach } from "bun:test";
import { ScriptedServer, type Script } from "../../fixtures/http/scripted-server.ts";

interface Closable {
  close(): Promise<void>;
}

/**
 * For a test file of HTTP tests on scripted servers: `serve(script)` starts one, and `keep(thing)`
 * registers a client (or anything closable). After each test all are closed, the last opened first,
 * so clients go before the servers they talk to.
 */
export function scriptedServers(): { serve(script?: Script): ScriptedServer; keep<T extends Closable>(thing: T): T } {
  const opened: Closable[] = [];
  afterEach(async () => {
    for (const thing of opened.splice(0).reverse()) await thing.close();
  });
  const keep = <T extends Closable>(thing: T): T => {
    opened.push(thing);
    return thing;
  };
  const serve = (script: Script = () => undefined): ScriptedServer => {
    const server = new ScriptedServer(script);
    keep({ close: () => server.stop() });
    return server;
  };
  return { serve, keep };
}
