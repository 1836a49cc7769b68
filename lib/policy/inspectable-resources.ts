import { isRecord, PolicyRule, type SynthesizedElement } from "./policy-rule";

/**
 * Kubernetes resource types whose every security-relevant field the other rules read: the
 * typed pod-bearing workloads (their pod specs have the blocks the rules walk: container,
 * security_context, host_path, host_network, …), the per-workspace identity and data
 * objects, and plain configuration. A type is added here only after checking that.
 */
const INSPECTABLE_KUBERNETES =
  /^kubernetes_(deployment|pod|stateful_set|job|persistent_volume_claim|service_account|role_binding|secret|config_map|service|namespace|token_request)(_v\d+)?$/;

/**
 * Providers whose resources cannot reach a cluster: Coder's objects, the devcontainer
 * builder's build records, Terraform's own `terraform_data`, and random values and timers.
 */
const HARMLESS_TYPES = /^(coder_|devcontainerbuilder_|random_|time_)|^terraform_data$/;

/**
 * Data sources that only read: Coder's, the devcontainer builder's and the cluster's. Any
 * other (`external` runs a program at plan time, `http` fetches from the provisioner's
 * network) is refused.
 */
const READ_ONLY_DATA = /^(coder_|devcontainerbuilder_|kubernetes_)/;

/** Generic Kubernetes resources: any object, given as a manifest the rules cannot walk. */
const GENERIC_KUBERNETES = /^kubernetes_manifest(_v\d+)?$/;

/**
 * The policies fail closed: a resource type they cannot inspect is refused, whatever it
 * contains. `kubernetes_manifest` (any object: a ClusterRoleBinding, a Role with `*` rules,
 * a privileged pod), resources of other providers (`kubectl_manifest`, `helm_release`,
 * `null_resource`), `provisioner` blocks (commands run with the Terraform provisioner's
 * credentials) and data sources such as `external` (a program run at plan time) would
 * otherwise pass every rule unread.
 */
export class InspectableResources extends PolicyRule {
  readonly id = "inspectable-resources";

  check(element: SynthesizedElement): string[] {
    if (element.kind === "data") {
      if (READ_ONLY_DATA.test(element.type)) return [];
      return [
        `${element.address}: data source ${element.type} is one the template policies cannot inspect ` +
          `(it may run a program or reach the network at plan time); add it to ` +
          `lib/policy/inspectable-resources.ts only if it just reads`,
      ];
    }
    const reasons: string[] = [];
    if (GENERIC_KUBERNETES.test(element.type)) {
      reasons.push(
        `${element.address}: a generic manifest${manifestKind(element.body)} is refused: the template ` +
          `policies cannot inspect it; use the typed resource (e.g. kubernetes_deployment_v1)`,
      );
    } else if (!INSPECTABLE_KUBERNETES.test(element.type) && !HARMLESS_TYPES.test(element.type)) {
      reasons.push(
        `${element.address}: resource type ${element.type} is one the template policies cannot inspect; ` +
          `use a type they know, or add it to lib/policy/inspectable-resources.ts once every rule ` +
          `reads all of its security-relevant fields`,
      );
    }
    if (element.body.provisioner !== undefined) {
      reasons.push(
        `${element.address}: provisioner blocks run commands with the Terraform provisioner's ` +
          `credentials, which no policy can inspect; they are not allowed`,
      );
    }
    return reasons;
  }
}

/** ` (kind X)` when the manifest names its kind literally, else "". */
export function manifestKind(body: Record<string, unknown>): string {
  const kind = literalManifestKind(body);
  return kind === undefined ? "" : ` (kind ${kind})`;
}

/** The manifest's `kind` when it is a literal string, else undefined. */
export function literalManifestKind(body: Record<string, unknown>): string | undefined {
  const manifest = body.manifest;
  if (!isRecord(manifest) || typeof manifest.kind !== "string") return undefined;
  return manifest.kind.includes("${") ? undefined : manifest.kind;
}
