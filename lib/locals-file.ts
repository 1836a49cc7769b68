/**
 * A template's local values, written in HCL native syntax (locals.tf) instead of cdk.tf.json.
 *
 * Terraform parses a `.tf.json` string as a template each time it evaluates or analyses it
 * (several times per plan), while a `.tf` file is parsed once when it is loaded. The
 * devcontainer template's apply-time logic (sizing, placement, warnings) is some 33 KB of
 * locals: in HCL its plans take ~13% less CPU, a module batch of 44 workspaces ~19%, and a
 * configuration of locals alone ~38% (docs/performance.md). The values are the same
 * expressions: a string that is one interpolation becomes its bare expression, any other
 * string stays a template with the same sequences (see hcl-template.ts), objects and lists
 * keep their shape. Terraform reads both files of the folder as one configuration.
 */
import { hclValueOf, renderHclFile } from "./hcl-writer";

/** The file beside cdk.tf.json that holds the locals. */
export const LOCALS_FILE = "locals.tf";

const HEADER =
  "# The template's local values, synthesized by coder-cdktf with cdk.tf.json (one\n" +
  "# configuration). Generated: change the constructs, not this file.\n";

/** locals.tf's text for `locals` (a `locals` object of Terraform JSON). */
export function renderLocalsFile(locals: Readonly<Record<string, unknown>>): string {
  const body = Object.entries(locals).map(([name, value]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
      throw new Error(`local "${name}": not a valid Terraform name`);
    }
    return { kind: "attribute" as const, name, value: hclValueOf(value, `local.${name}`) };
  });
  return HEADER + renderHclFile([{ type: "locals", labels: [], body }], "template");
}

/** Names of the locals a locals.tf written by {@link renderLocalsFile} declares. */
export function localNames(localsFileText: string): string[] {
  // Entries of the locals block are the only lines indented by exactly two spaces: values
  // that span lines are indented further.
  return [...localsFileText.matchAll(/^ {2}([A-Za-z_][A-Za-z0-9_-]*) +=/gm)].map((m) => m[1]);
}
