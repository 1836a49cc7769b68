/**
 * The tools some tests use beyond what the README requires (Node and Terraform): BusyBox and
 * ShellCheck. npm cannot bring either, so on a machine without one its tests are declared as
 * skipped, with the reason in their name (`[skipped: <reason>]`, which the summary's last line
 * counts), instead of failing `npm test`. A tool counts as present when it is on this
 * process's PATH, where a test spawns it from; `.ci/run` runs the suite a second time with both
 * hidden from PATH to prove that every use is guarded.
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** Why each optional tool's tests would be skipped: how to get it. */
const WHY_MISSING = {
  busybox: "BusyBox is not installed (apt-get install busybox; .ci/run installs it)",
  shellcheck: "shellcheck is not installed",
} as const;

/** A tool some tests need and `npm test` does not. */
export type OptionalTool = keyof typeof WHY_MISSING;

/** Why `tool`'s tests cannot run here, or undefined when it is on PATH. */
export function missingTool(tool: OptionalTool): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, tool), constants.X_OK);
      return undefined;
    } catch {
      // not in this directory
    }
  }
  return WHY_MISSING[tool];
}

/** `describe`, or a visibly skipped `describe` when `tool` is missing. */
export function describeWithTool(tool: OptionalTool, title: string, body: () => void): void {
  const missing = missingTool(tool);
  if (missing === undefined) describe(title, body);
  else describe.skip(`${title} [skipped: ${missing}]`, body);
}
