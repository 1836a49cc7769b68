import { UsageError } from "./cli-args";
import { TEMPLATES } from "./registry";

/**
 * The template id for a name given on a command line (`npm run push`, `npm run promote`): an
 * id, or a Coder name the operator's configuration gives one. Anything else is a usage error.
 */
export function templateIdFor(
  given: string,
  configured: ReadonlyMap<string, { readonly name?: string }> | undefined,
  usage: string,
): string {
  if (TEMPLATES.some((t) => t.id === given)) return given;
  for (const [id, settings] of configured ?? []) if (settings.name === given) return id;
  throw new UsageError(
    `unknown template "${given}"; known: ${TEMPLATES.map((t) => t.id).join(", ")}\n${usage}`,
  );
}
