/**
 * The HCL files synth writes beside cdk.tf.json: the parts of a configuration Terraform
 * evaluates most (locals, resources, data sources), in HCL native syntax, which Terraform
 * parses once per run where it re-parses a `.tf.json` string at every use. See
 * locals-file.ts and resources-file.ts; docs/architecture.md says why.
 */
import * as fs from "fs";
import * as path from "path";
import { type BlockSchemas, vendoredBlockSchemas } from "./block-schemas";
import { LOCALS_FILE, renderLocalsFile } from "./locals-file";
import { RESOURCES_FILE, splitResources } from "./resources-file";

/** The files {@link writeHclFiles} writes beside cdk.tf.json. */
export const HCL_FILES: readonly string[] = [LOCALS_FILE, RESOURCES_FILE];

/**
 * Moves the locals of `<dir>/cdk.tf.json` to locals.tf and its resources and data sources
 * (those with a schema in `schemas`) to main.tf, and rewrites cdk.tf.json with the rest as
 * cdktf writes it (two-space JSON). Returns the configuration as it was: the whole of it as
 * one Terraform JSON document.
 */
export function writeHclFiles(
  dir: string,
  schemas: BlockSchemas = vendoredBlockSchemas(),
): Record<string, unknown> {
  const jsonFile = path.join(dir, "cdk.tf.json");
  const model = JSON.parse(fs.readFileSync(jsonFile, "utf8")) as Record<string, unknown>;
  const { locals, ...withoutLocals } = model;
  const movesLocals = isNonEmpty(locals);
  const { hcl, rest } = splitResources(movesLocals ? withoutLocals : model, schemas);
  const files: [string, string | undefined][] = [
    [LOCALS_FILE, movesLocals ? renderLocalsFile(locals) : undefined],
    [RESOURCES_FILE, hcl],
  ];
  for (const [name, text] of files) {
    // A file left by an earlier synth into the same folder must not outlive its content.
    if (text === undefined) fs.rmSync(path.join(dir, name), { force: true });
    else fs.writeFileSync(path.join(dir, name), text);
  }
  fs.writeFileSync(jsonFile, JSON.stringify(rest, null, 2));
  return model;
}

function isNonEmpty(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.keys(value).length > 0;
}
