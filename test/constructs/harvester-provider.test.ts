/**
 * The parent Harvester cluster's provider: configured by the path of a kubeconfig on the
 * provisioner, never by its content (which would end up in plans and logs).
 */
import {
  DEFAULT_PARENT_KUBECONFIG_PATH,
  harvesterKubeconfigPathVariable,
  harvesterProvider,
} from "../../lib/constructs/harvester-provider";
import { synthConstruct, type TerraformJson } from "./construct-stack";

let tf: TerraformJson;
beforeAll(() => {
  tf = synthConstruct((stack) => {
    harvesterProvider(stack, harvesterKubeconfigPathVariable(stack));
  });
});

it("declares harvester_kubeconfig_path, a string defaulting to where Coder mounts it", () => {
  expect(tf.variable.harvester_kubeconfig_path).toMatchObject({
    type: "string",
    default: DEFAULT_PARENT_KUBECONFIG_PATH,
  });
  expect(tf.variable.harvester_kubeconfig_path).not.toHaveProperty("sensitive");
});

it("is the kubernetes provider aliased harvester, configured by config_path alone", () => {
  expect(tf.provider.kubernetes).toEqual([
    { alias: "harvester", config_path: "${var.harvester_kubeconfig_path}" },
  ]);
});

it("never reads the kubeconfig file into a Terraform value", () => {
  expect(JSON.stringify(tf)).not.toMatch(/file\(|yamldecode\(/);
});
