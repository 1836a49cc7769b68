import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { renderProvisionerDocs } from "./provisioner-docs";
import { TEMPLATES, type TemplateDefinition } from "./registry";
import { synthTemplates } from "./synth";

/** Where the generated page lives, relative to the project root. */
export const PROVISIONER_DOCS_FILE = "docs/provisioners.md";

/**
 * docs/provisioners.md for the built-in defaults (no operator config): synthesizes every
 * template into a temporary folder to learn its per-workspace tags, then renders the page.
 */
export function generateProvisionerDocs(
  templates: readonly TemplateDefinition[] = TEMPLATES,
): string {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "provisioner-docs-"));
  try {
    const synthesized = synthTemplates({ outdir, templates });
    return renderProvisionerDocs(
      templates.map((definition) => {
        const result = synthesized.find((s) => s.id === definition.id);
        if (result === undefined)
          throw new Error(`template "${definition.id}" was not synthesized`);
        return {
          id: definition.id,
          displayName: result.frontMatter.displayName,
          provisioners: definition.provisioners,
          workspaceTags: result.workspaceTags,
        };
      }),
    );
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}
