/**
 * The coder provider, the use_kubeconfig variable and the workspace cluster's kubernetes
 * provider, with the constraints TemplateStack writes for them.
 */
import {
  coderProvider,
  useKubeconfigVariable,
  workspaceClusterProvider,
} from "../../lib/constructs/providers";
import { synthConstruct, type TerraformJson } from "./construct-stack";

let tf: TerraformJson;
beforeAll(() => {
  tf = synthConstruct((stack) => {
    coderProvider(stack);
    workspaceClusterProvider(stack, useKubeconfigVariable(stack));
  });
});

it("configures coder without arguments: the provisioner's environment sets it up", () => {
  expect(tf.provider.coder).toEqual([{}]);
});

it("declares use_kubeconfig as a bool that defaults to the in-cluster account", () => {
  expect(tf.variable.use_kubeconfig).toMatchObject({ type: "bool", default: false });
  expect(tf.variable.use_kubeconfig.description).toMatch(/~\/\.kube\/config/);
});

it("reads ~/.kube/config only when use_kubeconfig is true, else nothing (in-cluster)", () => {
  expect(tf.provider.kubernetes).toEqual([
    { config_path: '${var.use_kubeconfig ? "~/.kube/config" : null}' },
  ]);
});

it("requires both providers from their registries, from the first releases the feature table knows", () => {
  // Nothing but the providers: the floors (coder's first 2.x release, kubernetes' first with
  // the _v1 resources); a template's own uses raise them (provider-features.test.ts).
  expect(tf.terraform.required_providers).toEqual({
    coder: { source: "coder/coder", version: ">= 2.0.1" },
    kubernetes: { source: "hashicorp/kubernetes", version: ">= 2.7.0, < 4.0.0" },
  });
});
