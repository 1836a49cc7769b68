import { Construct, TerraformVariable } from "../core/cdk";
import { TemplateVariable } from "../core/template-variable";
import { NON_EMPTY_STRING } from "../core/validate";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";

/** Where Coder deployments usually mount the parent cluster's kubeconfig. */
export const DEFAULT_PARENT_KUBECONFIG_PATH = "/kubeconfig.yaml";

/**
 * The `harvester_kubeconfig_path` variable: path, on the provisioner, of the kubeconfig
 * for the parent Harvester cluster.
 */
export function harvesterKubeconfigPathVariable(scope: Construct): TerraformVariable {
  return new TemplateVariable(scope, "harvester_kubeconfig_path", {
    rules: [NON_EMPTY_STRING],
    type: "string",
    default: DEFAULT_PARENT_KUBECONFIG_PATH,
    description:
      "Path, on the provisioner, of the kubeconfig for the parent Harvester cluster. Only the " +
      "path reaches Terraform; the file's content is read by the kubernetes provider alone.",
  });
}

/**
 * `provider "kubernetes" { alias = "harvester" }` for the parent Harvester cluster,
 * configured only through `config_path`. The file is never read into a Terraform value
 * (no `file()`/`yamldecode()`): its admin credentials would end up in plans and logs.
 */
export function harvesterProvider(
  scope: Construct,
  kubeconfigPath: TerraformVariable,
): KubernetesProvider {
  return new KubernetesProvider(scope, "harvester", {
    alias: "harvester",
    configPath: kubeconfigPath.stringValue,
  });
}
