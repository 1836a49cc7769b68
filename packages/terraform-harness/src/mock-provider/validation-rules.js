"use strict";
/**
 * What the real providers reject, as data: the mock applies each rule to the configuration
 * Terraform sends (ValidateResourceConfig, ValidateDataResourceConfig; coder_parameter's rules
 * at ReadDataSource, as the real provider checks them there). validation.js implements the
 * checks named by `check.kind`.
 *
 * A rule: { types, paths, check, source }
 * - types:  the resource (or data source) types it applies to;
 * - paths:  attribute paths, dot-separated; every element of a list or set is visited.
 *           `{pod}` is the pod spec of the type (POD_SPEC), `{podmeta}` the pod template's
 *           metadata, `{container}` each of `container` and `init_container`. "" is the whole
 *           object;
 * - check:  { kind, ... } (see validation.js);
 * - source: the real provider's file and function the rule and its wording come from
 *           (hashicorp/terraform-provider-kubernetes v2.38, coder/terraform-provider-coder
 *           v2.17).
 *
 * FORCE_NEW lists, per type, the attributes whose change makes the real provider ask for
 * replacement (schema `ForceNew: true`).
 */

const KUBERNETES = [
  "kubernetes_deployment_v1",
  "kubernetes_pod_v1",
  "kubernetes_persistent_volume_claim_v1",
  "kubernetes_secret_v1",
  "kubernetes_service_account_v1",
  "kubernetes_role_binding_v1",
  "kubernetes_role_v1",
  "kubernetes_cluster_role_binding_v1",
  "kubernetes_config_map_v1",
  "kubernetes_namespace_v1",
  "kubernetes_token_request_v1",
];

/** Where each workload type keeps its pod spec and pod template metadata. */
const POD_SPEC = {
  kubernetes_deployment_v1: { pod: "spec.template.spec", podmeta: "spec.template.metadata" },
  kubernetes_pod_v1: { pod: "spec", podmeta: null },
};
const WORKLOADS = Object.keys(POD_SPEC);
const CONTAINERS = ["container", "init_container"];

const K8S = "hashicorp/terraform-provider-kubernetes v2.38";
const CODER = "coder/terraform-provider-coder v2.17";

const oneOf = (values) => ({ kind: "oneOf", values });

const RULES = [
  // Object metadata (kubernetes/schema_metadata.go metadataSchema, validators.go).
  {
    types: KUBERNETES.filter((t) => t !== "kubernetes_namespace_v1"),
    paths: ["metadata.name"],
    check: { kind: "name" },
    source: `${K8S} kubernetes/validators.go validateName`,
  },
  {
    types: ["kubernetes_namespace_v1"],
    paths: ["metadata.name"],
    check: { kind: "dnsLabelName" },
    source: `${K8S} kubernetes/schema_metadata.go namespaceMetadataSchema (NameIsDNSLabel)`,
  },
  {
    types: KUBERNETES,
    paths: ["metadata.namespace"],
    check: { kind: "name" },
    source: `${K8S} kubernetes/schema_metadata.go namespacedMetadataSchema (validateName)`,
  },
  {
    types: KUBERNETES,
    paths: ["metadata.labels", "{podmeta}.labels", "spec.selector.match_labels"],
    check: { kind: "labels" },
    source: `${K8S} kubernetes/validators.go validateLabels`,
  },
  {
    types: KUBERNETES,
    paths: ["metadata.annotations", "{podmeta}.annotations"],
    check: { kind: "annotations" },
    source: `${K8S} kubernetes/validators.go validateAnnotations`,
  },
  // Pod spec (kubernetes/schema_pod_spec.go).
  {
    types: WORKLOADS,
    paths: ["{pod}.toleration.effect"],
    check: oneOf(["NoSchedule", "PreferNoSchedule", "NoExecute"]),
    source: `${K8S} kubernetes/schema_pod_spec.go podSpecFields toleration.effect (StringInSlice)`,
  },
  {
    types: WORKLOADS,
    paths: ["{pod}.toleration.operator"],
    check: oneOf(["Exists", "Equal"]),
    source: `${K8S} kubernetes/schema_pod_spec.go podSpecFields toleration.operator (StringInSlice)`,
  },
  {
    types: WORKLOADS,
    paths: ["{pod}.toleration.toleration_seconds"],
    check: { kind: "integerString" },
    source: `${K8S} kubernetes/schema_pod_spec.go podSpecFields toleration.toleration_seconds (validateTypeStringNullableInt)`,
  },
  {
    types: WORKLOADS,
    paths: ["{pod}.security_context.fs_group_change_policy"],
    check: oneOf(["OnRootMismatch", "Always"]),
    source: `${K8S} kubernetes/schema_pod_spec.go podSpecFields security_context.fs_group_change_policy (StringInSlice)`,
  },
  {
    types: WORKLOADS,
    paths: [
      "{pod}.security_context.seccomp_profile.type",
      "{pod}.{container}.security_context.seccomp_profile.type",
    ],
    check: oneOf(["Unconfined", "RuntimeDefault", "Localhost"]),
    source: `${K8S} kubernetes/schema_pod_spec.go seccompProfileField (StringInSlice)`,
  },
  {
    types: WORKLOADS,
    paths: [
      "{pod}.security_context.run_as_user",
      "{pod}.security_context.run_as_group",
      "{pod}.security_context.fs_group",
      "{pod}.{container}.security_context.run_as_user",
      "{pod}.{container}.security_context.run_as_group",
    ],
    check: { kind: "integerString" },
    source: `${K8S} kubernetes/schema_pod_spec.go securityContextSchema (validateTypeStringNullableInt)`,
  },
  {
    types: WORKLOADS,
    paths: ["{pod}.termination_grace_period_seconds"],
    check: { kind: "atLeast", min: 0 },
    source: `${K8S} kubernetes/validators.go validateTerminationGracePeriodSeconds`,
  },
  {
    types: WORKLOADS,
    paths: ["{pod}.restart_policy"],
    check: oneOf(["Always", "OnFailure", "Never"]),
    source: `${K8S} kubernetes/schema_pod_spec.go podSpecFields restart_policy (StringInSlice)`,
  },
  // Volumes (kubernetes/schema_volume_source.go).
  {
    types: WORKLOADS,
    paths: [
      "{pod}.volume.secret.default_mode",
      "{pod}.volume.secret.items.mode",
      "{pod}.volume.config_map.default_mode",
      "{pod}.volume.config_map.items.mode",
      "{pod}.volume.projected.default_mode",
    ],
    check: { kind: "modeBits" },
    source: `${K8S} kubernetes/validators.go validateModeBits (schema_volume_source.go)`,
  },
  {
    types: WORKLOADS,
    paths: ["{pod}.volume.empty_dir.size_limit"],
    check: { kind: "quantity" },
    source: `${K8S} kubernetes/validators.go validateResourceQuantity (schema_volume_source.go emptyDir)`,
  },
  {
    types: WORKLOADS,
    paths: ["{pod}.volume.empty_dir.medium"],
    check: oneOf(["", "Memory", "HugePages"]),
    source: `${K8S} kubernetes/schema_volume_source.go emptyDir medium (StringInSlice)`,
  },
  // Containers (kubernetes/schema_container.go).
  {
    types: WORKLOADS,
    paths: ["{pod}.{container}.resources.limits", "{pod}.{container}.resources.requests"],
    check: { kind: "resourceList" },
    source: `${K8S} kubernetes/validators.go validateResourceList (schema_container.go resources)`,
  },
  {
    types: WORKLOADS,
    paths: ["{pod}.{container}.port.container_port", "{pod}.{container}.port.host_port"],
    check: { kind: "port" },
    source: `${K8S} kubernetes/validators.go validatePortNum (schema_container.go ports)`,
  },
  {
    types: WORKLOADS,
    paths: ["{pod}.{container}.port.protocol"],
    check: oneOf(["TCP", "UDP", "SCTP"]),
    source: `${K8S} kubernetes/schema_container.go containerFields ports.protocol (StringInSlice)`,
  },
  {
    types: WORKLOADS,
    paths: ["{pod}.{container}.image_pull_policy"],
    check: oneOf(["Always", "Never", "IfNotPresent"]),
    source: `${K8S} kubernetes/schema_container.go containerFields image_pull_policy (StringInSlice)`,
  },
  // Persistent volume claims (kubernetes/schema_persistent_volume_claim.go).
  {
    types: ["kubernetes_persistent_volume_claim_v1"],
    paths: ["spec.access_modes"],
    check: {
      kind: "eachOneOf",
      values: ["ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"],
    },
    source: `${K8S} kubernetes/schema_persistent_volume_claim.go access_modes (StringInSlice)`,
  },
  {
    types: ["kubernetes_persistent_volume_claim_v1"],
    paths: ["spec.volume_mode"],
    check: oneOf(["Block", "Filesystem"]),
    source: `${K8S} kubernetes/schema_persistent_volume_claim.go volume_mode (StringInSlice)`,
  },
  {
    types: ["kubernetes_persistent_volume_claim_v1"],
    paths: ["spec.resources.limits", "spec.resources.requests"],
    check: { kind: "resourceList" },
    source: `${K8S} kubernetes/validators.go validateResourceList (schema_persistent_volume_claim.go)`,
  },

  // coder_secret (provider/secret.go validateSecretEnv, validateSecretFile).
  {
    types: ["coder_secret"],
    paths: ["env"],
    check: {
      kind: "pattern",
      pattern: "^$|^[a-zA-Z_][a-zA-Z0-9_]*$",
      message:
        '`env` must be a POSIX-compliant identifier matching "^[a-zA-Z_][a-zA-Z0-9_]*$"; got %q',
    },
    source: `${CODER} provider/secret.go validateSecretEnv`,
  },
  {
    types: ["coder_secret"],
    paths: ["file"],
    check: {
      kind: "pattern",
      pattern: "^$|^/|^~/",
      message: "`file` must start with `/` or `~/`; got %q",
    },
    source: `${CODER} provider/secret.go validateSecretFile`,
  },

  // coder_app (provider/app.go appResource).
  {
    types: ["coder_app"],
    paths: ["display_name"],
    check: { kind: "maxBytes", max: 64, message: "display name is too long (max 64 characters)" },
    source: `${CODER} provider/app.go appResource display_name ValidateDiagFunc (len > appDisplayNameMaxLength)`,
  },
  {
    types: ["coder_app"],
    paths: ["group"],
    check: { kind: "maxBytes", max: 64, message: "group name is too long (max 64 characters)" },
    source: `${CODER} provider/app.go appResource group ValidateDiagFunc`,
  },
  {
    types: ["coder_app"],
    paths: ["tooltip"],
    check: { kind: "maxBytes", max: 2048, message: "tooltip is too long (max 2048 characters)" },
    source: `${CODER} provider/app.go appResource tooltip ValidateDiagFunc`,
  },
  {
    types: ["coder_app"],
    paths: ["slug"],
    check: {
      kind: "pattern",
      pattern: "^[a-z0-9](-?[a-z0-9])*$",
      message:
        'invalid "coder_app" slug, must be a valid hostname ("^[a-z0-9](-?[a-z0-9])*$", cannot contain two consecutive hyphens or start/end with a hyphen): %q',
    },
    source: `${CODER} provider/app.go appSlugRegex (slug ValidateDiagFunc)`,
  },
  {
    types: ["coder_app"],
    paths: ["share"],
    check: oneOf(["owner", "authenticated", "public"]),
    source: `${CODER} provider/app.go appResource share ValidateDiagFunc`,
  },
  {
    types: ["coder_app"],
    paths: ["open_in"],
    check: oneOf(["tab", "slim-window"]),
    source: `${CODER} provider/app.go appResource open_in ValidateDiagFunc`,
  },
  {
    types: ["coder_app"],
    paths: [""],
    check: { kind: "conflicts", attribute: "command", with: ["url", "subdomain"] },
    source: `${CODER} provider/app.go appResource command ConflictsWith`,
  },
  // coder_script (provider/script.go scriptResource).
  {
    types: ["coder_script"],
    paths: ["cron"],
    check: { kind: "cron" },
    source: `${CODER} provider/script.go scriptResource cron ValidateFunc (ScriptCRONParser)`,
  },
  {
    types: ["coder_script"],
    paths: ["timeout"],
    check: { kind: "atLeast", min: 0 },
    source: `${CODER} provider/script.go scriptResource timeout`,
  },
  {
    types: ["coder_script"],
    paths: [""],
    check: { kind: "scriptTriggers" },
    source: `${CODER} provider/script.go scriptResource CreateContext (run_on_start/run_on_stop/cron, start_blocks_login)`,
  },
  // coder_agent (provider/agent.go agentResource).
  {
    types: ["coder_agent"],
    paths: ["os"],
    check: oneOf(["linux", "darwin", "windows"]),
    source: `${CODER} provider/agent.go agentResource os (StringInSlice)`,
  },
  {
    types: ["coder_agent"],
    paths: ["arch"],
    check: oneOf(["amd64", "arm64", "armv7"]),
    source: `${CODER} provider/agent.go agentResource arch (StringInSlice)`,
  },
  {
    types: ["coder_agent"],
    paths: ["metadata"],
    check: { kind: "uniqueField", field: "key", message: "duplicate agent metadata key %q" },
    source: `${CODER} provider/agent.go agentResource CustomizeDiff (duplicate agent metadata key)`,
  },
];

/**
 * coder_parameter: checked when the data source is read (provider/parameter.go
 * parameterDataSource ReadContext, valueIsType, Validation.Valid, formtype.go).
 */
const PARAMETER_RULES = {
  source: `${CODER} provider/parameter.go parameterDataSource ReadContext, valueIsType, Validation.Valid; provider/formtype.go`,
  /** Form types per parameter type, with options and without (formtype.go formTypeTruthTable). */
  formTypes: {
    string: { options: ["radio", "dropdown"], free: ["input", "textarea"] },
    number: { options: ["radio", "dropdown"], free: ["input", "slider"] },
    bool: { options: ["radio"], free: ["checkbox", "switch"] },
    "list(string)": { options: ["radio", "multi-select"], free: ["tag-select"] },
  },
};

/** Attributes whose change replaces the object (schema ForceNew), per type. */
const KUBERNETES_FORCE_NEW = ["metadata.name", "metadata.namespace", "metadata.generate_name"];
const FORCE_NEW = {
  ...Object.fromEntries(KUBERNETES.map((t) => [t, KUBERNETES_FORCE_NEW])),
  kubernetes_deployment_v1: [...KUBERNETES_FORCE_NEW, "spec.selector"],
  kubernetes_persistent_volume_claim_v1: [
    ...KUBERNETES_FORCE_NEW,
    "spec.access_modes",
    "spec.storage_class_name",
    "spec.volume_name",
    "spec.volume_mode",
    "spec.selector",
    "spec.resources.limits",
  ],
  kubernetes_secret_v1: [...KUBERNETES_FORCE_NEW, "type", "immutable"],
  kubernetes_role_binding_v1: [...KUBERNETES_FORCE_NEW, "role_ref"],
  kubernetes_cluster_role_binding_v1: [...KUBERNETES_FORCE_NEW, "role_ref"],
  kubernetes_token_request_v1: [...KUBERNETES_FORCE_NEW, "spec"],
  // Every attribute of coder_agent, coder_app and coder_script is ForceNew (provider/agent.go
  // agentResource, app.go, script.go): any change replaces the object.
  coder_agent: ["*"],
  coder_env: ["agent_id", "name", "value"],
  coder_app: ["*"],
  coder_script: ["*"],
  coder_metadata: ["resource_id"],
};

const FORCE_NEW_SOURCE = {
  kubernetes: `${K8S} kubernetes/schema_metadata.go (name, namespace ForceNew); resource_kubernetes_deployment_v1.go selector; schema_persistent_volume_claim.go; resource_kubernetes_secret_v1.go type; schema_rbac.go role_ref`,
  coder: `${CODER} provider/agent.go, app.go, script.go, env.go, metadata.go (ForceNew)`,
};

module.exports = {
  RULES,
  PARAMETER_RULES,
  FORCE_NEW,
  FORCE_NEW_SOURCE,
  POD_SPEC,
  CONTAINERS,
};
