/**
 * Several plans of one template that differ only in template variables, made as one Terraform
 * run: the variants are instances of a module batch (packages/terraform-harness/src/module-batch.ts),
 * so Terraform starts, reads the schemas and validates once (~0.35 s of a devcontainer plan)
 * and plans each variant for ~0.25 s. Each variant reads back as the plan of the template
 * alone would show it (`PlanResult.instance`), and the Kubernetes API step judges each
 * variant's own objects, as `tf.plan` would.
 *
 * Only variables can differ: data sources read the same fixtures in every instance (their
 * configuration is the same), so variants that need other parameters, another workspace or
 * other fixtures are separate plans. Tests of the template as a whole (root-only rules such
 * as sensitive outputs) plan it alone.
 */
import {
  enforceKubernetesApi,
  mergeStates,
  nestState,
  prepareModuleBatch,
  type PlanOptions,
  type PlanResult,
  type TerraformHarness,
  stateOf,
  type TerraformState,
} from "@coder-cdktf/terraform-harness";

/**
 * Plans `dir` once per entry of `variants` (its variables on top of `options.variables`) in
 * one Terraform run. With `options.state`, every variant plans on its own copy of that state.
 */
export async function planVariants<Key extends string>(
  tf: TerraformHarness,
  dir: string,
  options: PlanOptions,
  variants: Readonly<Record<Key, Readonly<Record<string, unknown>>>>,
): Promise<Record<Key, PlanResult>> {
  const batch = prepareModuleBatch(dir, variants);
  try {
    const prior = options.state;
    const state: TerraformState | undefined = prior
      ? mergeStates(batch.keys.map((key) => nestState(stateOf(prior), batch.instanceAddress(key))))
      : undefined;
    const plan = await tf.plan(batch.dir, {
      ...options,
      ...(state ? { state } : {}),
      // Each variant answers for its own objects (below), as its own plan would.
      kubernetesApi: "report",
    });
    const plans = {} as Record<Key, PlanResult>;
    for (const key of batch.keys as Key[]) {
      const instance = plan.instance(batch.instanceAddress(key));
      enforceKubernetesApi(instance, options);
      plans[key] = instance;
    }
    return plans;
  } finally {
    batch.cleanup();
  }
}
