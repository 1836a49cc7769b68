/**
 * The one-line "why" of a local value, kept beside the construct so that synth writes it
 * above the local in locals.tf (lib/private/locals-file.ts): operators read the apply-time
 * logic in Coder's template editor, where the TypeScript's comments are not.
 */
import type { TerraformLocal } from "./cdk";

const WHYS = new WeakMap<TerraformLocal, string>();

/** Records why `local` exists (one line; whitespace runs become one space). */
export function explainLocal(local: TerraformLocal, why: string): void {
  const line = why.replace(/\s+/g, " ").trim();
  if (line !== "") WHYS.set(local, line);
}

/** What {@link explainLocal} recorded for `local`, if anything. */
export function localWhy(local: TerraformLocal): string | undefined {
  return WHYS.get(local);
}
