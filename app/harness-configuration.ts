/**
 * Tells the plan harness (which parses no HCL and imports nothing of the project) the whole
 * configuration of a folder synth wrote: its variables and module calls are in main.tf
 * (lib/private/hcl-files.ts), and the harness points the calls at its module stubs and
 * declares the variables of a module batch from them. Call before planning a folder.
 */
import * as fs from "fs";
import * as path from "path";
import { setConfigurationReader } from "@coder-cdktf/terraform-harness/src/template-workdir";
import { stackConfiguration } from "../lib/private/stack-configuration";

/** Makes the harness read a folder's configuration with stackConfiguration. */
export function useStackConfigurations(): void {
  // A folder without cdk.tf.json is none of synth's (a module batch's root, a test's own).
  setConfigurationReader((dir) =>
    fs.existsSync(path.join(dir, "cdk.tf.json")) ? stackConfiguration(dir) : {},
  );
}
