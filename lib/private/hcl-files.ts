/**
 * The HCL files synth writes beside cdk.tf.json: the parts of a configuration Terraform
 * evaluates most (locals, resources, data sources) and the declarations an operator reads
 * with them (variables, modules, checks), in HCL native syntax, which Terraform
 * parses once per run where it re-parses a `.tf.json` string at every use. See
 * locals-file.ts, resources-file.ts and declarations-file.ts; docs/design-notes.md says why.
 */
import * as fs from "fs";
import * as path from "path";
import { type BlockSchemas, vendoredBlockSchemas } from "./block-schemas";
import { type LocalGroup, LOCALS_FILE, renderLocalsFile } from "./locals-file";
import { RESOURCES_FILE, renderMainFile, splitResources } from "./resources-file";
import { splitDeclarations } from "./declarations-file";
import { rememberConfiguration } from "./stack-configuration";
import { inlineLocals } from "./inline-locals";

/** The files {@link writeHclFiles} writes beside cdk.tf.json. */
export const HCL_FILES: readonly string[] = [LOCALS_FILE, RESOURCES_FILE];

/** Options of {@link writeHclFiles}. */
export interface WriteHclOptions {
  /** Block schemas of the types main.tf may hold. @default the vendored ones */
  readonly schemas?: BlockSchemas;
  /** locals.tf's groups by construct, from `localGroups(stack)`. @default none */
  readonly localGroups?: readonly LocalGroup[];
}

/**
 * Writes `model` (a whole configuration as Terraform JSON, locals flat; by default the one in
 * `<dir>/cdk.tf.json`) as synth ships it: the locals to locals.tf, those that carry no
 * decision of their own folded into their readers (inline-locals.ts), the variables,
 * resources and data sources (those with a schema), modules and checks to main.tf
 * (stackConfiguration gives them back for the folder), the rest to cdk.tf.json as cdktf
 * writes it (two-space JSON). Returns `model` as it was: the same values, every step named.
 */
export function writeHclFiles(
  dir: string,
  model: Record<string, unknown> = readConfiguration(dir),
  options: WriteHclOptions = {},
): Record<string, unknown> {
  const shipped = inlineLocals(model);
  const { locals, ...withoutLocals } = shipped;
  const movesLocals = isNonEmpty(locals);
  const schemas = options.schemas ?? vendoredBlockSchemas();
  // main.tf: the variables first (Coder lists them in file order), then what the template
  // reads and creates, then the modules it calls and the checks (declarations-file.ts).
  const declared = splitDeclarations(movesLocals ? withoutLocals : shipped, schemas);
  const { blocks, rest } = splitResources(declared.rest, schemas);
  const main = [...declared.variables, ...blocks, ...declared.calls];
  const files: [string, string | undefined][] = [
    [LOCALS_FILE, movesLocals ? renderLocalsFile(locals, options.localGroups) : undefined],
    [RESOURCES_FILE, main.length > 0 ? renderMainFile(main) : undefined],
  ];
  for (const [name, text] of files) {
    // A file left by an earlier synth into the same folder must not outlive its content.
    if (text === undefined) fs.rmSync(path.join(dir, name), { force: true });
    else fs.writeFileSync(path.join(dir, name), text);
  }
  fs.writeFileSync(path.join(dir, "cdk.tf.json"), JSON.stringify(rest, null, 2));
  rememberConfiguration(dir, model);
  return model;
}

function readConfiguration(dir: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(dir, "cdk.tf.json"), "utf8")) as Record<
    string,
    unknown
  >;
}

function isNonEmpty(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.keys(value).length > 0;
}
