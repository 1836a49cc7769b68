/**
 * The provider versions that introduced what the templates use, and the `required_providers`
 * lower bounds computed from them: each template declares the oldest version that has every
 * resource, data source, argument, block and read attribute it uses, and the oldest its
 * registry modules accept. Nobody keeps a bound by hand: a new use raises it at synth, and
 * test/constructs/provider-features.test.ts fails on a use the table does not account for.
 *
 * Sources: the providers' git tags (terraform-provider-coder has no CHANGELOG file; its
 * releases are the tags), for each row the first release tag whose source declares the
 * feature, with that tag's commit; hashicorp/terraform-provider-kubernetes's CHANGELOG.md and
 * tags likewise; a module's own `required_providers` at its `release/coder/<name>/v<x.y.z>`
 * tag in coder/registry.
 */
import { moduleUses, providerUses, type ProviderUse } from "./provider-usage";

/** A resource or data source type: the release that has it, with the attributes it had then. */
export interface ProviderTypeFeature {
  readonly provider: string;
  /** `coder_env`, `data.coder_parameter`, `kubernetes_deployment_v1`. */
  readonly type: string;
  readonly since: string;
  readonly source: string;
  /** The release that removed it, where one did: the type exists in `since` ≤ v < `until`. */
  readonly until?: string;
  /** Where the removal is recorded, with `until`. */
  readonly removedSource?: string;
  /**
   * Names (the last segment of a path) of the arguments, blocks and attributes used here that
   * the type already had at `since`. A used name in neither this list nor an attribute row is
   * unaccounted for. `id` is always there.
   */
  readonly known: readonly string[];
}

/** An argument, block or attribute added after its type: a dotted path through blocks. */
export interface ProviderAttributeFeature {
  readonly provider: string;
  readonly type: string;
  /** `merge_strategy`, `spec.template.spec.security_context.fs_group_change_policy`; a block covers what is inside it. */
  readonly path: string;
  readonly since: string;
  readonly source: string;
}

/** What a pinned registry module asks of a provider (its own `required_providers`). */
export interface ModuleProviderRequirement {
  readonly source: string;
  readonly version: string;
  readonly provider: string;
  readonly since: string;
  readonly sourceNote: string;
}

const CODER = "terraform-provider-coder";
const K8S = "terraform-provider-kubernetes";
const coderTag = (tag: string, commit: string, what: string) =>
  `${CODER} ${tag} (${commit}): ${what}`;
const k8sTag = (tag: string, commit: string, what: string) => `${K8S} ${tag} (${commit}): ${what}`;

/** The first 2.x release of the coder provider (v2.0.0 was never tagged). */
const CODER_2 = coderTag(
  "v2.0.1",
  "3d46b73",
  "first 2.x release, provider/provider.go registers it",
);
/** The release that added the `_v1` resources of the kubernetes provider. */
const K8S_V1 = k8sTag("v2.7.0", "9ef82cc93", "first release with the _v1 resources");

/**
 * Names the kubernetes provider's `_v1` resources used here already had at 2.7.0 (checked
 * against the tag's kubernetes/*.go): metadata, pod spec, containers, volumes, RBAC, Secrets.
 */
const KUBERNETES_KNOWN: readonly string[] = [
  // env.value_from.secret_key_ref (the Dev Container variables' Secret) is in 2.7.0's pod spec.
  "value_from",
  "secret_key_ref",
  "access_modes",
  "add",
  "affinity",
  "allow_privilege_escalation",
  "annotations",
  "api_group",
  "automount_service_account_token",
  "capabilities",
  "claim_name",
  "command",
  "container",
  "data",
  "drop",
  "effect",
  "empty_dir",
  "env",
  "host_aliases",
  "hostname",
  "hostnames",
  "image",
  "image_pull_policy",
  "image_pull_secrets",
  "init_container",
  "ip",
  "key",
  "kind",
  "label_selector",
  "labels",
  "limits",
  "match_expressions",
  "match_labels",
  "medium",
  "metadata",
  "mount_path",
  "name",
  "namespace",
  "node_selector",
  "operator",
  "persistent_volume_claim",
  "pod_affinity_term",
  "pod_anti_affinity",
  "preferred_during_scheduling_ignored_during_execution",
  "privileged",
  "read_only",
  "read_only_root_filesystem",
  "replicas",
  "requests",
  "resources",
  "role_ref",
  "run_as_group",
  "run_as_non_root",
  "run_as_user",
  "secret",
  "secret_name",
  "default_mode",
  "security_context",
  "selector",
  "service_account_name",
  "share_process_namespace",
  "size_limit",
  "spec",
  "strategy",
  "sub_path",
  "subject",
  "template",
  "termination_grace_period_seconds",
  "toleration",
  "toleration_seconds",
  "topology_key",
  "type",
  "value",
  "values",
  "volume",
  "volume_mount",
  "wait_for_rollout",
  "wait_until_bound",
  "weight",
  "fs_group",
  "items",
  "path",
  "mode",
  "args",
  "working_dir",
  "port",
  "container_port",
  "protocol",
  "storage_class_name",
  "volume_name",
  "binary_data",
];

export const PROVIDER_TYPES: readonly ProviderTypeFeature[] = [
  {
    provider: "coder",
    type: "coder_agent",
    since: "2.0.1",
    source: CODER_2,
    known: [
      "arch",
      "display_apps",
      "display_name",
      "env",
      "init_script",
      "interval",
      "key",
      "metadata",
      "os",
      "script",
      "timeout",
      "token",
      "vscode",
      "web_terminal",
      "ssh_helper",
      "port_forwarding_helper",
      "vscode_insiders",
      "startup_script",
      "dir",
      "order",
    ],
  },
  {
    provider: "coder",
    type: "coder_app",
    since: "2.0.1",
    source: CODER_2,
    known: [
      "agent_id",
      "command",
      "display_name",
      "external",
      "healthcheck",
      "hidden",
      "icon",
      "interval",
      "order",
      "share",
      "slug",
      "subdomain",
      "threshold",
      "url",
    ],
  },
  {
    provider: "coder",
    type: "coder_env",
    since: "2.0.1",
    source: CODER_2,
    known: ["agent_id", "name", "value"],
  },
  {
    provider: "coder",
    type: "coder_metadata",
    since: "2.0.1",
    source: CODER_2,
    known: ["item", "key", "resource_id", "value", "sensitive", "hide", "icon", "daily_cost"],
  },
  {
    provider: "coder",
    type: "coder_script",
    since: "2.0.1",
    source: CODER_2,
    known: [
      "agent_id",
      "cron",
      "display_name",
      "icon",
      "log_path",
      "run_on_start",
      "run_on_stop",
      "script",
      "start_blocks_login",
      "timeout",
    ],
  },
  {
    provider: "coder",
    type: "data.coder_external_auth",
    since: "2.0.1",
    source: CODER_2,
    known: ["access_token", "optional"],
  },
  {
    provider: "coder",
    type: "data.coder_parameter",
    since: "2.0.1",
    source: CODER_2,
    known: [
      "default",
      "description",
      "display_name",
      "ephemeral",
      "error",
      "icon",
      "max",
      "min",
      "monotonic",
      "mutable",
      "name",
      "option",
      "order",
      "regex",
      "type",
      "validation",
      "value",
    ],
  },
  {
    provider: "coder",
    type: "data.coder_workspace",
    since: "2.0.1",
    source: CODER_2,
    known: ["access_url", "name", "start_count", "transition", "template_name"],
  },
  {
    provider: "coder",
    type: "data.coder_workspace_owner",
    since: "2.0.1",
    source: CODER_2,
    known: ["email", "full_name", "name", "session_token", "ssh_public_key"],
  },
  {
    provider: "coder",
    type: "data.coder_workspace_preset",
    since: "2.1.3",
    source: coderTag("v2.1.3", "c9b396f", "provider/provider.go registers coder_workspace_preset"),
    known: ["name", "parameters"],
  },
  {
    provider: "coder",
    type: "data.coder_secret",
    since: "2.16.0",
    source: coderTag(
      "v2.16.0",
      "74193bc",
      "feat: add coder_secret data source for user secrets (#501, af77cd5)",
    ),
    // No template may use it again: a use fails synth (assertAvailableInNewest).
    until: "2.18.0",
    removedSource:
      `${CODER} v2.18.0 (May 2026): revert PR #512 removes coder_secret; coder/coder #25512 removed ` +
      "the provisioner side, #25590 bumped to 2.18.0 for the removal (real-world-facts.md §8)",
    known: ["env", "file", "help_message", "value"],
  },
  {
    provider: "coder",
    type: "coder_ai_task",
    since: "2.7.0",
    source: coderTag("v2.7.0", "c80041b", "provider/provider.go registers coder_ai_task"),
    known: ["sidebar_app"],
  },
  {
    provider: "coder",
    type: "data.coder_task",
    since: "2.13.0",
    source: coderTag("v2.13.0", "2976879", "provider/provider.go registers coder_task"),
    known: ["prompt", "enabled"],
  },
  {
    provider: "coder",
    type: "coder_devcontainer",
    since: "2.3.0",
    source: coderTag("v2.3.0", "9a74558", "provider/provider.go registers coder_devcontainer"),
    known: ["agent_id", "workspace_folder", "config_path"],
  },
  ...[
    "kubernetes_deployment_v1",
    "kubernetes_namespace_v1",
    "kubernetes_persistent_volume_claim_v1",
    "kubernetes_role_binding_v1",
    "kubernetes_secret_v1",
    "kubernetes_service_account_v1",
  ].map((type): ProviderTypeFeature => ({
    provider: "kubernetes",
    type,
    since: "2.7.0",
    source: K8S_V1,
    known: KUBERNETES_KNOWN,
  })),
  {
    provider: "kubernetes",
    type: "kubernetes_token_request_v1",
    since: "2.19.0",
    source: k8sTag(
      "v2.19.0",
      "643cd18b3",
      "CHANGELOG 2.19.0: new resource kubernetes_token_request_v1",
    ),
    known: [
      "metadata",
      "name",
      "namespace",
      "spec",
      "audiences",
      "expiration_seconds",
      "bound_object_ref",
      "api_version",
      "kind",
      "uid",
      "token",
    ],
  },
];

export const PROVIDER_ATTRIBUTES: readonly ProviderAttributeFeature[] = [
  {
    provider: "coder",
    type: "coder_agent",
    path: "resources_monitoring",
    since: "2.2.0",
    source: coderTag("v2.2.0", "f95a77f", "provider/agent.go declares resources_monitoring"),
  },
  {
    provider: "coder",
    type: "coder_agent",
    path: "api_key_scope",
    since: "2.4.2",
    source: coderTag("v2.4.2", "01334b6", "provider/agent.go declares api_key_scope"),
  },
  {
    provider: "coder",
    type: "coder_app",
    path: "open_in",
    since: "2.1.0",
    source: coderTag("v2.1.0", "d933a71", "provider/app.go declares open_in"),
  },
  {
    provider: "coder",
    type: "coder_app",
    path: "group",
    since: "2.5.0",
    source: coderTag("v2.5.0", "28dae7f", "provider/app.go declares group"),
  },
  {
    provider: "coder",
    type: "coder_app",
    path: "tooltip",
    since: "2.11.0",
    source: coderTag("v2.11.0", "bb2167e", "provider/app.go declares tooltip"),
  },
  {
    provider: "coder",
    type: "coder_env",
    path: "merge_strategy",
    since: "2.15.0",
    source: coderTag("v2.15.0", "dbadcf7", "provider/env.go declares merge_strategy"),
  },
  {
    provider: "coder",
    type: "data.coder_parameter",
    path: "form_type",
    since: "2.4.0",
    source: coderTag("v2.4.0", "4126ff4", "provider/parameter.go declares form_type"),
  },
  {
    provider: "coder",
    type: "data.coder_parameter",
    path: "styling",
    since: "2.4.0",
    source: coderTag("v2.4.0", "4126ff4", "provider/parameter.go declares styling"),
  },
  {
    provider: "coder",
    type: "data.coder_workspace",
    path: "is_prebuild",
    since: "2.4.0",
    source: coderTag("v2.4.0", "4126ff4", "provider/workspace.go declares is_prebuild"),
  },
  {
    provider: "coder",
    type: "data.coder_workspace_preset",
    path: "prebuilds",
    since: "2.4.0",
    source: coderTag("v2.4.0", "4126ff4", "provider/workspace_preset.go declares prebuilds"),
  },
  {
    provider: "coder",
    type: "data.coder_workspace_preset",
    path: "prebuilds.expiration_policy",
    since: "2.5.0",
    source: coderTag(
      "v2.5.0",
      "28dae7f",
      "provider/workspace_preset.go declares expiration_policy",
    ),
  },
  {
    provider: "coder",
    type: "data.coder_workspace_preset",
    path: "prebuilds.scheduling",
    since: "2.6.0",
    source: coderTag("v2.6.0", "6570400", "provider/workspace_preset.go declares scheduling"),
  },
  {
    provider: "coder",
    type: "data.coder_workspace_preset",
    path: "default",
    since: "2.8.0",
    source: coderTag("v2.8.0", "e890833", "provider/workspace_preset.go declares default"),
  },
  {
    provider: "coder",
    type: "data.coder_workspace_preset",
    path: "description",
    since: "2.9.0",
    source: coderTag("v2.9.0", "e6d58d0", "provider/workspace_preset.go declares description"),
  },
  {
    provider: "coder",
    type: "data.coder_workspace_preset",
    path: "icon",
    since: "2.9.0",
    source: coderTag("v2.9.0", "e6d58d0", "provider/workspace_preset.go declares icon"),
  },
  {
    provider: "coder",
    type: "coder_ai_task",
    path: "app_id",
    since: "2.12.0",
    source: coderTag("v2.12.0", "bc840fd", "provider/ai_task.go declares app_id"),
  },
  {
    provider: "coder",
    type: "coder_devcontainer",
    path: "subagent_id",
    since: "2.14.0",
    source: coderTag("v2.14.0", "7fa3c10", "provider/devcontainer.go declares subagent_id"),
  },
  {
    provider: "kubernetes",
    type: "kubernetes_deployment_v1",
    path: "spec.template.spec.security_context.seccomp_profile",
    since: "2.9.0",
    source: k8sTag("v2.9.0", "4db999165", "seccomp_profile in the pod security context"),
  },
  {
    provider: "kubernetes",
    type: "kubernetes_deployment_v1",
    path: "spec.template.spec.container.security_context.seccomp_profile",
    since: "2.9.0",
    source: k8sTag("v2.9.0", "4db999165", "seccomp_profile in the container security context"),
  },
  {
    provider: "kubernetes",
    type: "kubernetes_deployment_v1",
    path: "spec.template.spec.init_container.security_context.seccomp_profile",
    since: "2.9.0",
    source: k8sTag("v2.9.0", "4db999165", "seccomp_profile in the container security context"),
  },
  {
    provider: "kubernetes",
    type: "kubernetes_deployment_v1",
    path: "spec.template.spec.security_context.fs_group_change_policy",
    since: "2.16.0",
    source: k8sTag("v2.16.0", "3f3056417", "fs_group_change_policy in the pod security context"),
  },
  {
    provider: "kubernetes",
    type: "kubernetes_deployment_v1",
    path: "spec.template.spec.container.volume_mount.sub_path_expr",
    since: "2.38.0",
    source: k8sTag(
      "v2.38.0",
      "be88f4427",
      "CHANGELOG 2.38.0: Add sub_path_expr to volume mount options (GH-2622)",
    ),
  },
  {
    provider: "kubernetes",
    type: "kubernetes_secret_v1",
    path: "wait_for_service_account_token",
    since: "2.14.0",
    source: k8sTag(
      "v2.14.0",
      "676727f70",
      "wait_for_service_account_token on kubernetes_secret_v1",
    ),
  },
];

const moduleRow = (name: string, version: string, since: string, constraint: string) => ({
  source: `registry.coder.com/coder/${name}/coder`,
  version,
  provider: "coder",
  since,
  sourceNote: `coder/registry release/coder/${name}/v${version}: main.tf requires coder ${constraint}`,
});

export const MODULE_REQUIREMENTS: readonly ModuleProviderRequirement[] = [
  moduleRow("claude-code", "5.4.0", "2.12.0", '">= 2.12"'),
  moduleRow("code-server", "1.5.2", "2.5.0", '">= 2.5"'),
  moduleRow("jetbrains", "1.4.0", "2.5.0", '">= 2.5"'),
  moduleRow("jetbrains-gateway", "1.2.6", "2.5.0", '">= 2.5"'),
  moduleRow("vscode-web", "1.6.2", "2.5.0", '">= 2.5"'),
  moduleRow("vscode-desktop", "1.3.0", "2.5.0", '">= 2.5"'),
  moduleRow("dotfiles", "1.4.2", "2.5.0", '">= 2.5"'),
  moduleRow("git-config", "1.0.34", "0.23.0", '">= 0.23"'),
  moduleRow("git-clone", "2.0.3", "0.12.0", '">= 0.12"'),
];

/**
 * Upper bounds: the next major version, which may break the resources used (coder has had
 * none since 2.0, and keeps none, as before). kubernetes 3.x
 * is admitted: its CHANGELOG (3.0.0, Dec 2025) deprecates only the unversioned resources
 * (`kubernetes_deployment` → `_v1` …), which the templates never use, and every `_v1`
 * resource and attribute used here is declared unchanged up to 3.2.1.
 */
export const PROVIDER_UPPER_BOUNDS: Readonly<Record<string, string | undefined>> = {
  kubernetes: "< 4.0.0",
};

/** The oldest version any template may declare for a provider (its first release here). */
const FLOOR: Readonly<Record<string, string>> = { coder: "2.0.1", kubernetes: "2.7.0" };

/** A release whose `terraform providers schema -json` document is in schemas/. */
export interface VendoredRelease {
  readonly provider: string;
  readonly version: string;
  /** The document's path from the project root. */
  readonly file: string;
}

/**
 * Oldest first per provider. The newest of each is the one the bindings are generated from
 * and the plan harness serves by default (schemas/*.schema.json).
 */
export const VENDORED_RELEASES: readonly VendoredRelease[] = [
  { provider: "coder", version: "2.17.0", file: "schemas/releases/coder-2.17.0.schema.json" },
  { provider: "coder", version: "2.19.0", file: "schemas/coder.schema.json" },
  { provider: "kubernetes", version: "2.38.0", file: "schemas/kubernetes.schema.json" },
];

/** `provider_schemas` keys of the providers the feature table covers. */
export const PROVIDER_ADDRESSES: Readonly<Record<string, string>> = {
  coder: "registry.terraform.io/coder/coder",
  kubernetes: "registry.terraform.io/hashicorp/kubernetes",
};

/** The newest release the project knows of `provider` (its newest vendored schema). */
export function newestRelease(provider: string): string {
  const releases = VENDORED_RELEASES.filter((r) => r.provider === provider);
  const newest = releases[releases.length - 1];
  if (!newest) throw new Error(`no vendored schema of provider "${provider}"`);
  return newest.version;
}

/** Compares dotted versions numerically. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const maxVersion = (versions: readonly string[]) =>
  versions.reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b));

/** The rows that decide the version of one use (its type, and rows for it or a block around it). */
export function featuresOf(use: ProviderUse): {
  readonly type?: ProviderTypeFeature;
  readonly attributes: readonly ProviderAttributeFeature[];
} {
  const type = PROVIDER_TYPES.find((t) => t.provider === use.provider && t.type === use.type);
  const path = use.path;
  const attributes =
    path === undefined
      ? []
      : PROVIDER_ATTRIBUTES.filter(
          (a) =>
            a.provider === use.provider &&
            a.type === use.type &&
            (path === a.path || path.startsWith(`${a.path}.`)),
        );
  return { type, attributes };
}

/** The version one use needs; undefined when the table does not account for it. */
export function versionOf(use: ProviderUse): string | undefined {
  const { type, attributes } = featuresOf(use);
  if (!type) return undefined;
  const leaf = use.path?.split(".").pop();
  if (
    leaf !== undefined &&
    leaf !== "id" &&
    attributes.length === 0 &&
    !type.known.includes(leaf)
  ) {
    return undefined;
  }
  return maxVersion([type.since, ...attributes.map((a) => a.since)]);
}

/** Uses of `tf` the table has no row for (test/constructs/provider-features.test.ts lists them). */
export function unaccountedUses(tf: Record<string, unknown>): ProviderUse[] {
  return providerUses(tf).filter((u) => versionOf(u) === undefined);
}

/**
 * The lowest version of `provider` that has everything `tf` uses, and that its modules accept.
 * A use the table does not know counts as its type's version (the test fails on it).
 */
export function providerLowerBound(provider: string, tf: Record<string, unknown>): string {
  const versions = [FLOOR[provider] ?? "0.0.0"];
  for (const use of providerUses(tf)) {
    if (use.provider !== provider) continue;
    const v = versionOf(use) ?? featuresOf(use).type?.since;
    if (v) versions.push(v);
  }
  for (const m of moduleUses(tf)) {
    const row = MODULE_REQUIREMENTS.find(
      (r) => r.source === m.source && r.version === m.version && r.provider === provider,
    );
    if (row) versions.push(row.since);
  }
  return maxVersion(versions);
}

/**
 * Fails on a use of a feature the newest known release no longer has: a template's bound is
 * open upwards to the next major version, so operators resolve the newest release, and a
 * type that a minor release removed fails every workspace build there ("provider does not
 * support data source"). The message names the feature, the releases that had it and the
 * newest release.
 */
export function assertAvailableInNewest(provider: string, tf: Record<string, unknown>): void {
  const newest = VENDORED_RELEASES.some((r) => r.provider === provider)
    ? newestRelease(provider)
    : undefined;
  if (newest === undefined) return;
  const removed = new Set<string>();
  for (const use of providerUses(tf)) {
    if (use.provider !== provider) continue;
    const type = featuresOf(use).type;
    if (type?.until !== undefined && compareVersions(type.until, newest) <= 0) {
      removed.add(
        `${type.type} exists only in ${provider} ${type.since} up to ${type.until} (removed in ${type.until}: ${type.removedSource ?? "see the feature table"})`,
      );
    }
  }
  if (removed.size > 0) {
    const lower = providerLowerBound(provider, tf);
    throw new Error(
      `uses what the newest ${provider} provider release (${newest}) no longer has, ` +
        `though its bound >= ${lower} admits that release: ${[...removed].join("; ")}`,
    );
  }
}

/** `required_providers` constraints for the providers the table covers. */
export function computedVersionConstraint(provider: string, tf: Record<string, unknown>): string {
  assertAvailableInNewest(provider, tf);
  const upper = PROVIDER_UPPER_BOUNDS[provider];
  return `>= ${providerLowerBound(provider, tf)}${upper ? `, ${upper}` : ""}`;
}
