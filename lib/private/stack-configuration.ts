/**
 * The whole configuration of a template folder as one Terraform JSON document, for the tools
 * that take a folder (the plan harness, the upgrade check, the benchmark): its variables,
 * modules and checks are in main.tf (hcl-files.ts), which no tool here parses. The writer
 * remembers what it wrote to each folder in this process; a folder it did not write is read
 * from its cdk.tf.json, which holds them in every layout before this one (an earlier
 * release's synth) and when the whole configuration is JSON (test/support/configuration-in-json.ts).
 */
import * as fs from "fs";
import * as path from "path";

type Json = Record<string, unknown>;

/** What was written to each folder (resolved path), latest write last. */
const written = new Map<string, Json>();

/** Records that `dir` holds `model` (called by writeHclFiles, or for a synth read back). */
export function rememberConfiguration(dir: string, model: Json): void {
  written.set(path.resolve(dir), model);
}

/**
 * The configuration in `dir` as Terraform JSON, locals flat. Throws for a folder whose
 * main.tf declares variables, modules or checks that this process did not write: reading
 * its cdk.tf.json alone would silently miss them.
 */
export function stackConfiguration(dir: string): Json {
  const known = written.get(path.resolve(dir));
  if (known !== undefined) return known;
  const main = path.join(dir, "main.tf");
  if (fs.existsSync(main) && /^(variable|module|check) "/m.test(fs.readFileSync(main, "utf8"))) {
    throw new Error(
      `${dir}: its variables, modules or checks are in main.tf, and this process did not ` +
        "write it: take the configuration synth returned (its `model`) instead",
    );
  }
  return JSON.parse(fs.readFileSync(path.join(dir, "cdk.tf.json"), "utf8")) as Json;
}
