import { UsageError } from "../cli-args";
import { TEMPLATES } from "../registry";

/**
 * The template id for a name given on a command line: an id, or a Coder template name the
 * operator configured (`templates.<id>.name`).
 */
export function resolveTemplateId(
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
