/**
 * The same template as one cdk.tf.json, as cdktf writes it, instead of cdk.tf.json with
 * locals.tf and main.tf, and a view of a plan that two plans of the same configuration
 * share, so that tests can show that writing parts in HCL (lib/private/hcl-files.ts) changes
 * nothing Terraform plans.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { HCL_FILES } from "../../lib/private/hcl-files";
import type { PlanResult } from "@coder-cdktf/terraform-harness";

/** A copy of `dir` whose cdk.tf.json is `model` (the whole configuration), without HCL files. */
export function withConfigurationInJson(
  dir: string,
  model: Record<string, unknown>,
): { readonly dir: string; cleanup(): void } {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "configuration-in-json-"));
  fs.cpSync(dir, copy, { recursive: true });
  for (const name of HCL_FILES) fs.rmSync(path.join(copy, name), { force: true });
  fs.writeFileSync(path.join(copy, "cdk.tf.json"), JSON.stringify(model, null, 2));
  return { dir: copy, cleanup: () => fs.rmSync(copy, { recursive: true, force: true }) };
}

/** What a plan decides: every change (by address), the outputs and the warnings. */
export function planDecisions(plan: PlanResult): Record<string, unknown> {
  return {
    changes: Object.fromEntries(plan.resourceChanges.map((r) => [r.address, r])),
    outputs: plan.outputs,
    warnings: plan.warnings,
  };
}
