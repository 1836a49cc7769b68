/**
 * What the real providers reject, as data: the mock applies each rule to the configuration
 * Terraform sends (ValidateResourceConfig, ValidateDataResourceConfig; coder_parameter's rules
 * at ReadDataSource, as the real provider checks them there). validation.ts implements the
 * checks named by `check.kind`.
 *
 * A rule: { types, paths, check, source }
 * - types:  the resource (or data source) types it applies to;
 * - paths:  attribute paths, dot-separated; every element of a list or set is visited.
 *           `{pod}` is the pod spec of the type (POD_SPEC), `{podmeta}` the pod template's
 *           metadata, `{container}` each of `container` and `init_container`. "" is the whole
 *           object;
 * - check:  { kind, ... } (see validation.ts);
 * - source: the real provider's file and function the rule and its wording come from
 *           (hashicorp/terraform-provider-kubernetes v2.38, coder/terraform-provider-coder
 *           v2.17).
 *
 * FORCE_NEW lists the attributes whose change makes the real provider ask for replacement
 * (schema `ForceNew: true`), each entry with its source.
 */

/** What validation.ts's CHECKS implements, by kind, with each kind's options. */
export type Check =
  | {
      readonly kind:
        | "name"
        | "dnsLabelName"
        | "labels"
        | "annotations"
        | "integerString"
        | "modeBits"
        | "quantity"
        | "resourceList"
        | "port"
        | "cron"
        | "scriptTriggers";
    }
  | { readonly kind: "oneOf"; readonly values: readonly string[] }
  /** Every element of a list one of `values`. */
  | { readonly kind: "eachOneOf"; readonly values: readonly string[] }
  | { readonly kind: "atLeast"; readonly min: number; readonly message?: string }
  | { readonly kind: "maxBytes"; readonly max: number; readonly message: string }
  /** `message`'s %q is the value, quoted as Go quotes it. */
  | { readonly kind: "pattern"; readonly pattern: string; readonly message: string }
  | { readonly kind: "conflicts"; readonly attribute: string; readonly with: readonly string[] }
  /** `message`'s %q is the repeated value. */
  | { readonly kind: "uniqueField"; readonly field: string; readonly message: string };

/** One rule of the table (see above). */
export interface ValidationRule {
  readonly types: readonly string[];
  readonly paths: readonly string[];
  readonly check: Check;
  /** The real provider's version, file and function the rule and its wording come from. */
  readonly source: string;
}

/** Attributes of `types` whose change replaces the object (dot paths; "*": every attribute). */
export interface ForceNewRule {
  readonly types: readonly string[];
  readonly attributes: readonly string[];
  readonly source: string;
}

/** Where a workload type keeps its pod spec and its pod template's metadata (null: none). */
export interface PodSpecPaths {
  readonly pod: string;
  readonly podmeta: string | null;
}

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
export const POD_SPEC: Readonly<Record<string, PodSpecPaths>> = {
  kubernetes_deployment_v1: { pod: "spec.template.spec", podmeta: "spec.template.metadata" },
  kubernetes_pod_v1: { pod: "spec", podmeta: null },
};
const WORKLOADS = Object.keys(POD_SPEC);
export const CONTAINERS: readonly string[] = ["container", "init_container"];

const K8S = "hashicorp/terraform-provider-kubernetes v2.38";
const CODER = "coder/terraform-provider-coder v2.17";

const oneOf = (values: readonly string[]): Check => ({ kind: "oneOf", values });

export const RULES: readonly ValidationRule[] = [
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
  // kubernetes_token_request_v1 (tokenRequestV1SpecFields).
  {
    types: ["kubernetes_token_request_v1"],
    paths: ["spec.expiration_seconds"],
    check: { kind: "atLeast", min: 600, message: "must be greater than or equal to 600" },
    source: `${K8S} kubernetes/resource_kubernetes_token_request_v1.go spec (tokenRequestV1SpecFields) expiration_seconds ValidateFunc`,
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
export const PARAMETER_RULES: {
  readonly source: string;
  readonly formTypes: Readonly<
    Record<string, { readonly options: readonly string[]; readonly free: readonly string[] }>
  >;
} = {
  source: `${CODER} provider/parameter.go parameterDataSource ReadContext, valueIsType, Validation.Valid; provider/formtype.go`,
  /** Form types per parameter type, with options and without (formtype.go formTypeTruthTable). */
  formTypes: {
    string: { options: ["radio", "dropdown"], free: ["input", "textarea"] },
    number: { options: ["radio", "dropdown"], free: ["input", "slider"] },
    bool: { options: ["radio"], free: ["checkbox", "switch"] },
    "list(string)": { options: ["radio", "multi-select"], free: ["tag-select"] },
  },
};

const KUBERNETES_FORCE_NEW_SOURCE = `${K8S} kubernetes`;
const CODER_FORCE_NEW_SOURCE = `${CODER} provider`;

/**
 * The ForceNew attributes, in the order the mock reports them (a type's attributes are the
 * union of its entries, in table order).
 */
export const FORCE_NEW: readonly ForceNewRule[] = [
  {
    types: KUBERNETES,
    attributes: ["metadata.name", "metadata.namespace", "metadata.generate_name"],
    source: `${KUBERNETES_FORCE_NEW_SOURCE}/schema_metadata.go metadataFields, namespacedMetadataSchema (ForceNew)`,
  },
  {
    types: ["kubernetes_deployment_v1"],
    attributes: ["spec.selector"],
    source: `${KUBERNETES_FORCE_NEW_SOURCE}/resource_kubernetes_deployment_v1.go spec.selector (ForceNew)`,
  },
  {
    types: ["kubernetes_persistent_volume_claim_v1"],
    attributes: [
      "spec.access_modes",
      "spec.storage_class_name",
      "spec.volume_name",
      "spec.volume_mode",
      "spec.selector",
      "spec.resources.limits",
    ],
    source: `${KUBERNETES_FORCE_NEW_SOURCE}/schema_persistent_volume_claim.go persistentVolumeClaimSpecFields (ForceNew)`,
  },
  {
    types: ["kubernetes_secret_v1"],
    attributes: ["type", "immutable"],
    source: `${KUBERNETES_FORCE_NEW_SOURCE}/resource_kubernetes_secret_v1.go type, immutable (ForceNew)`,
  },
  {
    types: ["kubernetes_role_binding_v1", "kubernetes_cluster_role_binding_v1"],
    attributes: ["role_ref"],
    source: `${KUBERNETES_FORCE_NEW_SOURCE}/schema_rbac.go role_ref (ForceNew)`,
  },
  {
    types: ["kubernetes_token_request_v1"],
    attributes: ["spec"],
    source: `${KUBERNETES_FORCE_NEW_SOURCE}/resource_kubernetes_token_request_v1.go spec (ForceNew)`,
  },
  // Every attribute of coder_agent, coder_app and coder_script is ForceNew: any change
  // replaces the object.
  {
    types: ["coder_agent"],
    attributes: ["*"],
    source: `${CODER_FORCE_NEW_SOURCE}/agent.go agentResource (ForceNew on every attribute)`,
  },
  {
    types: ["coder_app"],
    attributes: ["*"],
    source: `${CODER_FORCE_NEW_SOURCE}/app.go appResource (ForceNew on every attribute)`,
  },
  {
    types: ["coder_script"],
    attributes: ["*"],
    source: `${CODER_FORCE_NEW_SOURCE}/script.go scriptResource (ForceNew on every attribute)`,
  },
  {
    types: ["coder_env"],
    attributes: ["agent_id", "name", "value"],
    source: `${CODER_FORCE_NEW_SOURCE}/env.go envResource (ForceNew)`,
  },
  {
    types: ["coder_metadata"],
    attributes: ["resource_id"],
    source: `${CODER_FORCE_NEW_SOURCE}/metadata.go metadataResource resource_id (ForceNew)`,
  },
];

/** Values the real provider sends for the fields a block leaves unset. */
export interface UnsetFieldValues {
  readonly values: Readonly<Record<string, unknown>>;
  readonly source: string;
}

/**
 * What the real kubernetes provider sends for a security_context block: it reads every field
 * of the block, so an unset bool goes out as false, and allow_privilege_escalation as its
 * schema default, true. Planned values show what the API receives.
 */
export const SECURITY_CONTEXT_ZEROS: {
  readonly container: UnsetFieldValues;
  readonly pod: UnsetFieldValues;
} = {
  container: {
    values: {
      allow_privilege_escalation: true,
      privileged: false,
      read_only_root_filesystem: false,
      run_as_non_root: false,
    },
    source: `${K8S} kubernetes/schema_container.go securityContextSchema (allow_privilege_escalation Default true), structures_container.go expandContainerSecurityContext`,
  },
  pod: {
    values: { run_as_non_root: false },
    source: `${K8S} kubernetes/structures_pod.go expandPodSecurityContext`,
  },
};
