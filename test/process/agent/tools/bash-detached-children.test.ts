import { afterEach, describe, expect, test } from "bun:test";
import { BashTool } from "../../../../src/agent/tools/bash-tool.ts";
import { tempDir, uniqueSeconds } from "../../../helpers/paths.ts";
import { findProcesses, killAll, waitForNoProcesses } from "../../../helpers/processes.ts";

const markers: string[] = [];
afterEach(async () => {
  for (const marker of markers.splice(0)) killAll(await findProcesses(marker));
});

describe.skipIf(process.platform !== "linux")("the bash tool and a child its command detached with setsid", () => {
  test("a timeout ends the detached child too, not only the command's process group", async () => {
    const marker = uniqueSeconds();
    markers.push(marker);
    const tool = new BashTool({ cwd: tempDir() });
    const result = await tool.execute({ command: `setsid sleep ${marker} </dev/null >/dev/null 2>&1 & sleep 30`, timeout_ms: 1000 });
    expect(result.content).toContain("timed out after 1000 ms");
    expect(await waitForNoProcesses(marker, 3000)).toEqual([]);
  });
});
