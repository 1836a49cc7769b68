/**
 * Where the files the harness ships beside its sources live (the mock provider's entry point,
 * the module stubs, the empty CLI config). Found from the package's own folder rather than
 * from `__dirname`: a command that bundles the harness into one file (scripts/preview.js)
 * runs it from build/, where `__dirname` names the bundle's folder.
 */
import { dirname, join } from "node:path";

/** packages/terraform-harness/src, wherever the package is installed or linked. */
export const HARNESS_SOURCE_DIR = join(
  dirname(require.resolve("@coder-cdktf/terraform-harness/package.json")),
  "src",
);

/** A file or folder shipped in the harness's src/ folder. */
export function harnessFile(...segments: string[]): string {
  return join(HARNESS_SOURCE_DIR, ...segments);
}
