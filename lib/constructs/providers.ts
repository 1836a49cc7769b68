import { Construct, Fn, TerraformVariable, Token } from "../core/cdk";
import { CoderProvider } from "../../.gen/providers/coder/provider";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";

/** `provider "coder" {}`: it takes its settings from the provisioner's environment. */
export function coderProvider(scope: Construct): CoderProvider {
  return new CoderProvider(scope, "coder");
}

/**
 * The `use_kubeconfig` template variable (default false): true when coderd runs
 * outside the cluster and should use ~/.kube/config instead of its service account.
 */
export function useKubeconfigVariable(scope: Construct): TerraformVariable {
  return new TerraformVariable(scope, "use_kubeconfig", {
    type: "bool",
    default: false,
    description:
      "Use ~/.kube/config (true) instead of the in-cluster service account of the provisioner (false). " +
      "Set true only when Coder runs outside the cluster.",
  });
}

/**
 * The default `kubernetes` provider for the workspace cluster: in-cluster
 * credentials, or ~/.kube/config when `use_kubeconfig` is true.
 */
export function workspaceClusterProvider(
  scope: Construct,
  useKubeconfig: TerraformVariable,
): KubernetesProvider {
  return new KubernetesProvider(scope, "kubernetes", {
    configPath: Token.asString(
      Fn.conditional(useKubeconfig.booleanValue, "~/.kube/config", Token.nullValue()),
    ),
  });
}
