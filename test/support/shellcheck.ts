/**
 * Tests of shellcheck's own verdict. npm cannot bring shellcheck (.ci/run installs the Debian
 * package; `npm run lint` fails without it), so on a machine without it these tests are
 * declared as skipped, with the reason in their name, instead of failing `npm test`.
 */
import { missingTool } from "./optional-tools";

/** Why shellcheck's tests cannot run here (test/support/optional-tools.ts), or undefined. */
const missing = missingTool("shellcheck");

/** `it`, or a visibly skipped `it` where shellcheck is not installed. */
export function itWithShellcheck(title: string, body: () => void): void {
  if (missing === undefined) it(title, body);
  else it.skip(`${title} [skipped: ${missing}]`, body);
}
