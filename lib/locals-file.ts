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
import * as fs from "fs";
import * as path from "path";
import { soleInterpolation } from "./hcl-template";
import { HclExpression, type HclWriterValue, renderHclFile } from "./hcl-writer";

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
    return { kind: "attribute" as const, name, value: toHcl(value, `local.${name}`) };
  });
  return HEADER + renderHclFile([{ type: "locals", labels: [], body }], "template");
}

/**
 * Moves the `locals` of `<dir>/cdk.tf.json` into `<dir>/locals.tf` (cdk.tf.json is rewritten
 * as cdktf writes it: two-space JSON). Returns the locals moved (empty when there were none;
 * then nothing is written).
 */
export function moveLocalsToHcl(dir: string): Record<string, unknown> {
  const jsonFile = path.join(dir, "cdk.tf.json");
  const config = JSON.parse(fs.readFileSync(jsonFile, "utf8")) as Record<string, unknown>;
  const locals = config.locals as Record<string, unknown> | undefined;
  if (locals === undefined || Object.keys(locals).length === 0) return {};
  delete config.locals;
  fs.writeFileSync(path.join(dir, LOCALS_FILE), renderLocalsFile(locals));
  fs.writeFileSync(jsonFile, JSON.stringify(config, null, 2));
  return locals;
}

/** Names of the locals a locals.tf written by {@link renderLocalsFile} declares. */
export function localNames(localsFileText: string): string[] {
  // Entries of the locals block are the only lines indented by exactly two spaces: values
  // that span lines are indented further.
  return [...localsFileText.matchAll(/^ {2}([A-Za-z_][A-Za-z0-9_-]*) +=/gm)].map((m) => m[1]);
}

function toHcl(value: unknown, where: string): HclWriterValue {
  if (typeof value === "string") {
    const expression = soleInterpolation(value);
    return expression === undefined ? value : new HclExpression(expression);
  }
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map((v, i) => toHcl(v, `${where}[${i}]`));
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        toHcl(v, `${where}.${k}`),
      ]),
    );
  }
  throw new Error(`${where}: ${typeof value} cannot be written in HCL`);
}
