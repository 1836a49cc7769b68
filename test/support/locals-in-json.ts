/**
 * The same template with its locals where cdktf writes them (in cdk.tf.json) instead of
 * locals.tf, and a view of a plan that two plans of the same configuration share, so that
 * tests can show that writing the locals in HCL (lib/locals-file.ts) changes nothing
 * Terraform plans.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { LOCALS_FILE } from "../../lib/locals-file";
import type { PlanResult } from "../harness";

/** A copy of `dir` whose cdk.tf.json is `model` (locals included) and that has no locals.tf. */
export function withLocalsInJson(
  dir: string,
  model: Record<string, unknown>,
): { readonly dir: string; cleanup(): void } {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "locals-in-json-"));
  fs.cpSync(dir, copy, { recursive: true });
  fs.rmSync(path.join(copy, LOCALS_FILE), { force: true });
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
