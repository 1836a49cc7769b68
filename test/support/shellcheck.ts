/**
 * Tests of shellcheck's own verdict. npm cannot bring shellcheck (.ci/run installs the Debian
 * package; `npm run lint` fails without it), so on a machine without it these tests are
 * declared as skipped, with the reason in their name, instead of failing `npm test`.
 */
import { spawnSync } from "node:child_process";

/** Whether `shellcheck` runs on this machine. */
const hasShellcheck = spawnSync("shellcheck", ["--version"]).status === 0;

/** `it`, or a visibly skipped `it` where shellcheck is not installed. */
export function itWithShellcheck(title: string, body: () => void): void {
  if (hasShellcheck) it(title, body);
  else it.skip(`${title} [skipped: shellcheck is not installed]`, body);
}
