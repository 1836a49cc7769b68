/**
 * The Kubernetes API server's side of a plan: each planned Deployment, Pod, PVC, Secret,
 * ServiceAccount and RoleBinding, as the kubernetes provider would send it (the mock plans
 * its zero values too), checked with the API server's validation rules
 * (kubernetes pkg/apis/core/validation/validation.go, apimachinery's name rules), and the
 * Pod Security Admission level each pod meets (pod-security.ts).
 *
 * Values still unknown at plan time are skipped. Problems are worded like the API server's
 * field errors: `<path>: Invalid value: "<value>": <detail>`.
 */
import {
  dnsLabel,
  dnsSubdomain,
  envVarName,
  labelValue,
  parseQuantity,
  qualifiedName,
} from "./mock-provider/kubernetes-syntax";
import { isRecord } from "./json";
import type { PlannedResource, PlanResult } from "./plan-result";
import { podSecurityLevel, type PodSecurityLevel } from "./pod-security";

/** One rule the API server would enforce, broken by a planned object. */
export interface ApiViolation {
  readonly address: string;
  readonly message: string;
}

/** A planned pod (a Deployment's template or a Pod) and the PSA level it meets. */
export interface PlannedPod {
  readonly address: string;
  readonly level: PodSecurityLevel;
  /** Why the pod misses the next stricter level (empty at restricted). */
  readonly belowNext: readonly string[];
}

export interface ApiValidation {
  readonly violations: readonly ApiViolation[];
  readonly pods: readonly PlannedPod[];
}

type Obj = Record<string, unknown>;

/** The first element of a block list (the SDK's single nested blocks), or the object. */
const one = (value: unknown): Obj | undefined =>
  Array.isArray(value)
    ? isRecord(value[0])
      ? value[0]
      : undefined
    : isRecord(value)
      ? value
      : undefined;
const list = (value: unknown): Obj[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const strings = (value: unknown): Record<string, string> =>
  isRecord(value)
    ? Object.fromEntries(
        Object.entries(value)
          .filter(([, v]) => v !== null && v !== undefined)
          .map(([k, v]) => [k, String(v)]),
      )
    : {};
const known = (value: unknown): value is string | number | boolean =>
  value !== null && value !== undefined;
const q = (value: unknown) => JSON.stringify(String(value));

/** Resource names the API server treats as standard for containers. */
const STANDARD_CONTAINER_RESOURCES = new Set(["cpu", "memory", "ephemeral-storage"]);
const HUGEPAGES = /^hugepages-(.+)$/;

/**
 * Linux capability names a container may add or drop (capabilities(7), without CAP_;
 * the API server passes any string to the runtime, which fails to start the container on an
 * unknown one), plus ALL. The harness keeps its own list, as it does for Pod Security: it stands
 * for the cluster. The template's copy (src/devcontainer/runtime.ts) is tested to be equal.
 */
export const KNOWN_CAPABILITIES: ReadonlySet<string> = new Set(
  (
    "ALL AUDIT_CONTROL AUDIT_READ AUDIT_WRITE BLOCK_SUSPEND BPF CHECKPOINT_RESTORE CHOWN " +
    "DAC_OVERRIDE DAC_READ_SEARCH FOWNER FSETID IPC_LOCK IPC_OWNER KILL LEASE LINUX_IMMUTABLE " +
    "MAC_ADMIN MAC_OVERRIDE MKNOD NET_ADMIN NET_BIND_SERVICE NET_BROADCAST NET_RAW PERFMON " +
    "SETFCAP SETGID SETPCAP SETUID SYSLOG SYS_ADMIN SYS_BOOT SYS_CHROOT SYS_MODULE SYS_NICE " +
    "SYS_PACCT SYS_PTRACE SYS_RAWIO SYS_RESOURCE SYS_TIME SYS_TTY_CONFIG WAKE_ALARM"
  ).split(" "),
);

/** Validates every planned Kubernetes object of `plan` (creates and updates). */
export function validateKubernetesObjects(plan: PlanResult): ApiValidation {
  const violations: ApiViolation[] = [];
  const pods: PlannedPod[] = [];
  for (const resource of plan.resourceChanges) {
    if (resource.mode !== "managed" || !resource.type.startsWith("kubernetes_")) continue;
    if (!resource.actions.includes("create") && !resource.actions.includes("update")) continue;
    const problems: string[] = [];
    const report = (message: string) => problems.push(message);
    validateObject(resource, report, pods);
    violations.push(...problems.map((message) => ({ address: resource.address, message })));
  }
  return { violations, pods };
}

/** Whether any value inside `unknown` (an `after_unknown` subtree) is unknown. */
function anyUnknown(unknown: unknown): boolean {
  if (unknown === true) return true;
  if (Array.isArray(unknown)) return unknown.some(anyUnknown);
  if (isRecord(unknown)) return Object.values(unknown).some(anyUnknown);
  return false;
}

/** One planned object under validation: what a rule reads and where it reports. */
interface ObjectUnderValidation {
  readonly resource: PlannedResource;
  readonly report: (message: string) => void;
  /** Where a rule that validates a pod spec adds the pod and its PSA level. */
  readonly pods: PlannedPod[];
}

/** A rule of the API server for the objects of `types` (every type: "*"). */
interface ApiObjectRule {
  readonly types: readonly string[] | "*";
  readonly check: (object: ObjectUnderValidation) => void;
  /** The API server's file and function the rule and its wording come from. */
  readonly source: string;
}

/** The API server's source repository (the rules name files and functions; no version is pinned). */
const K8S = "kubernetes/kubernetes";

/** The API server's rules, applied in this order to each planned object they name. */
export const API_OBJECT_RULES: readonly ApiObjectRule[] = [
  {
    types: "*",
    check: ({ resource, report }) =>
      validateMetadata(
        one(resource.after.metadata),
        "metadata",
        report,
        resource.type === "kubernetes_namespace_v1",
      ),
    source: `${K8S} staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go ValidateObjectMeta (name, namespace, labels, annotations)`,
  },
  {
    types: ["kubernetes_deployment_v1"],
    check: validateDeployment,
    source: `${K8S} pkg/apis/apps/validation/validation.go ValidateDeploymentSpec (selector, template labels, pod spec)`,
  },
  {
    types: ["kubernetes_pod_v1"],
    check: ({ resource, report, pods }) => {
      const pod = one(resource.after.spec);
      if (pod)
        pods.push(
          validatePod(resource.address, pod, "spec", report, one(resource.afterUnknown.spec)),
        );
    },
    source: `${K8S} pkg/apis/core/validation/validation.go ValidatePodSpec`,
  },
  {
    types: ["kubernetes_persistent_volume_claim_v1"],
    check: ({ resource, report }) =>
      validateClaim(
        one(resource.after.spec),
        report,
        anyUnknown(one(resource.afterUnknown.spec)?.resources),
      ),
    source: `${K8S} pkg/apis/core/validation/validation.go ValidatePersistentVolumeClaimSpec`,
  },
  {
    types: ["kubernetes_secret_v1"],
    check: validateSecretKeys,
    source: `${K8S} pkg/apis/core/validation/validation.go ValidateSecret (IsConfigMapKey)`,
  },
  {
    types: ["kubernetes_role_binding_v1", "kubernetes_cluster_role_binding_v1"],
    check: validateRoleBinding,
    source: `${K8S} pkg/apis/rbac/validation/validation.go ValidateRoleBinding, ValidateRoleBindingSubject`,
  },
  {
    types: ["kubernetes_token_request_v1"],
    check: ({ resource, report }) => validateTokenRequest(one(resource.after.spec), report),
    source: `${K8S} pkg/apis/authentication/validation/validation.go ValidateTokenRequest; pkg/registry/core/serviceaccount/storage/token.go Create`,
  },
];

function validateObject(
  resource: PlannedResource,
  report: (m: string) => void,
  pods: PlannedPod[],
) {
  for (const rule of API_OBJECT_RULES) {
    if (rule.types === "*" || rule.types.includes(resource.type))
      rule.check({ resource, report, pods });
  }
}

/** A Deployment: a selector that the template's labels match, and the template's pod. */
function validateDeployment({ resource, report, pods }: ObjectUnderValidation): void {
  const spec = one(resource.after.spec);
  const template = one(spec?.template);
  validateMetadata(one(template?.metadata), "spec.template.metadata", report, false, true);
  const selector = strings(one(spec?.selector)?.match_labels);
  const templateLabels = strings(one(template?.metadata)?.labels);
  if (Object.keys(selector).length === 0 && !isRecord(resource.afterUnknown.spec)) {
    report("spec.selector: Required value");
  }
  for (const [k, v] of Object.entries(selector)) {
    if (templateLabels[k] !== v && k in templateLabels) {
      report(
        `spec.template.metadata.labels: Invalid value: ${q(JSON.stringify(templateLabels))}: \`selector\` does not match template \`labels\``,
      );
      break;
    }
  }
  const pod = one(template?.spec);
  const podUnknown = one(one(one(resource.afterUnknown.spec)?.template)?.spec);
  if (pod) pods.push(validatePod(resource.address, pod, "spec.template.spec", report, podUnknown));
}

/** A Secret's data keys: config keys. */
function validateSecretKeys({ resource, report }: ObjectUnderValidation): void {
  for (const field of ["data", "binary_data"]) {
    for (const key of Object.keys(strings(resource.after[field]))) {
      if (!/^[-._a-zA-Z0-9]+$/.test(key) || key.length > 253) {
        report(
          `data[${key}]: Invalid value: ${q(key)}: a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
        );
      }
    }
  }
}

/** A RoleBinding or ClusterRoleBinding: its roleRef and its subjects. */
function validateRoleBinding({ resource, report }: ObjectUnderValidation): void {
  const after = resource.after;
  const ref = one(after.role_ref);
  if (ref && known(ref.kind) && !["Role", "ClusterRole"].includes(String(ref.kind))) {
    report(
      `roleRef.kind: Unsupported value: ${q(ref.kind)}: supported values: "Role", "ClusterRole"`,
    );
  }
  if (ref && ref.name === "") report("roleRef.name: Required value");
  list(after.subject).forEach((subject, i) => {
    if (subject.name === "") report(`subjects[${i}].name: Required value`);
    if (subject.kind === "ServiceAccount" && known(subject.name)) {
      for (const e of dnsSubdomain(String(subject.name))) {
        report(`subjects[${i}].name: Invalid value: ${q(subject.name)}: ${e}`);
      }
    }
  });
}

/**
 * A TokenRequest, as the API server checks it before minting (pkg/apis/authentication/
 * validation ValidateTokenRequest; pkg/registry/core/serviceaccount/storage/token.go Create):
 * a lifetime from 10 minutes to 2^32 seconds, and a bound object of a kind a token can be
 * bound to (a core Pod, Secret or Node) with a name.
 */
function validateTokenRequest(spec: Obj | undefined, report: (m: string) => void) {
  if (!spec) return;
  const seconds = spec.expiration_seconds;
  if (typeof seconds === "number") {
    if (seconds < 600)
      report(
        "spec.expirationSeconds: Invalid value: may not specify a duration less than 10 minutes",
      );
    if (seconds > 2 ** 32)
      report(
        "spec.expirationSeconds: Invalid value: may not specify a duration larger than 2^32 seconds",
      );
  }
  const bound = one(spec.bound_object_ref);
  if (!bound) return;
  const version = bound.api_version;
  const kind = bound.kind;
  if (known(version) && known(kind)) {
    const group = String(version).includes("/") ? String(version).split("/")[0] : "";
    if (group !== "" || !["Pod", "Secret", "Node"].includes(String(kind))) {
      report(`cannot bind token to object of type ${String(version)}, Kind=${String(kind)}`);
    }
  }
  if (bound.name === "" || bound.name === null) report("spec.boundObjectRef.name: Required value");
}

function validateMetadata(
  meta: Obj | undefined,
  path: string,
  report: (m: string) => void,
  isNamespace: boolean,
  isTemplate = false,
) {
  if (!meta) return;
  if (!isTemplate && known(meta.name)) {
    const name = String(meta.name);
    for (const e of isNamespace ? dnsLabel(name) : dnsSubdomain(name)) {
      report(`${path}.name: Invalid value: ${q(name)}: ${e}`);
    }
  }
  if (!isTemplate && known(meta.namespace) && meta.namespace !== "") {
    for (const e of dnsLabel(String(meta.namespace))) {
      report(`${path}.namespace: Invalid value: ${q(meta.namespace)}: ${e}`);
    }
  }
  validateLabels(strings(meta.labels), `${path}.labels`, report);
  let annotationBytes = 0;
  for (const [k, v] of Object.entries(strings(meta.annotations))) {
    for (const e of qualifiedName(k.toLowerCase())) {
      report(`${path}.annotations: Invalid value: ${q(k)}: ${e}`);
    }
    annotationBytes += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (annotationBytes > 256 * 1024) {
    report(`${path}.annotations: Too long: must have at most 262144 bytes`);
  }
}

function validateLabels(labels: Record<string, string>, path: string, report: (m: string) => void) {
  for (const [k, v] of Object.entries(labels)) {
    for (const e of qualifiedName(k)) report(`${path}: Invalid value: ${q(k)}: ${e}`);
    for (const e of labelValue(v)) report(`${path}: Invalid value: ${q(v)}: ${e}`);
  }
}

function validateClaim(
  spec: Obj | undefined,
  report: (m: string) => void,
  resourcesUnknown: boolean,
) {
  if (!spec) return;
  const modes = Array.isArray(spec.access_modes) ? spec.access_modes : [];
  if (modes.length === 0)
    report("spec.accessModes: Required value: at least 1 access mode is required");
  const requests = strings(one(spec.resources)?.requests);
  if (!("storage" in requests) && !resourcesUnknown) {
    report(`spec.resources[storage]: Required value`);
  }
  for (const [name, value] of Object.entries(requests)) {
    const parsed = parseQuantity(value);
    if (parsed.error)
      report(`spec.resources.requests[${name}]: Invalid value: ${q(value)}: ${parsed.error}`);
    else if (name === "storage" && (parsed.value ?? 0) <= 0) {
      report(`spec.resources[storage]: Invalid value: ${q(value)}: must be greater than zero`);
    }
  }
}

interface ContainerRef {
  readonly container: Obj;
  readonly path: string;
}

/** A pod spec: containers, resources, tolerations, node selector, volumes and mounts. */
function validatePod(
  address: string,
  pod: Obj,
  path: string,
  report: (m: string) => void,
  unknown: Obj | undefined,
): PlannedPod {
  // A volume list with unknown parts may hold the volume a mount names.
  const volumesComplete = !anyUnknown(unknown?.volume);
  const containers: ContainerRef[] = [
    ...list(pod.init_container).map((c, i) => ({
      container: c,
      path: `${path}.initContainers[${i}]`,
    })),
    ...list(pod.container).map((c, i) => ({ container: c, path: `${path}.containers[${i}]` })),
  ];
  if (list(pod.container).length === 0) report(`${path}.containers: Required value`);

  // Volumes: DNS-label names, unique.
  const volumes = new Set<string>();
  list(pod.volume).forEach((volume, i) => {
    const name = String(volume.name ?? "");
    for (const e of dnsLabel(name))
      report(`${path}.volumes[${i}].name: Invalid value: ${q(name)}: ${e}`);
    if (volumes.has(name)) report(`${path}.volumes[${i}].name: Duplicate value: ${q(name)}`);
    volumes.add(name);
  });

  const names = new Set<string>();
  for (const { container, path: at } of containers) {
    const name = String(container.name ?? "");
    for (const e of dnsLabel(name)) report(`${at}.name: Invalid value: ${q(name)}: ${e}`);
    if (names.has(name)) report(`${at}.name: Duplicate value: ${q(name)}`);
    names.add(name);
    list(container.env).forEach((env, i) => {
      if (!known(env.name)) return;
      for (const e of envVarName(String(env.name))) {
        report(`${at}.env[${i}].name: Invalid value: ${q(env.name)}: ${e}`);
      }
    });
    validateResources(one(container.resources), `${at}.resources`, report);
    validateMounts(container, at, volumesComplete ? volumes : undefined, report);
    const capabilities = one(one(container.security_context)?.capabilities);
    for (const field of ["add", "drop"]) {
      const values = Array.isArray(capabilities?.[field])
        ? (capabilities?.[field] as unknown[])
        : [];
      values.forEach((capability, i) => {
        if (known(capability) && !KNOWN_CAPABILITIES.has(String(capability))) {
          report(
            `${at}.securityContext.capabilities.${field}[${i}]: Invalid value: ${q(capability)}: not a Linux capability name (without CAP_)`,
          );
        }
      });
    }
  }

  list(pod.toleration).forEach((toleration, i) =>
    validateToleration(toleration, `${path}.tolerations[${i}]`, report),
  );
  for (const [k, v] of Object.entries(strings(pod.node_selector))) {
    for (const e of qualifiedName(k)) report(`${path}.nodeSelector: Invalid value: ${q(k)}: ${e}`);
    for (const e of labelValue(v)) report(`${path}.nodeSelector: Invalid value: ${q(v)}: ${e}`);
  }
  return { address, ...podSecurityLevel(pod) };
}

function validateResources(resources: Obj | undefined, path: string, report: (m: string) => void) {
  const limits = strings(resources?.limits);
  const requests = strings(resources?.requests);
  const values: Record<string, Record<string, number>> = { limits: {}, requests: {} };
  for (const [section, map] of Object.entries({ limits, requests })) {
    for (const [name, value] of Object.entries(map)) {
      const at = `${path}.${section}[${name}]`;
      const nameProblems = resourceNameProblems(name);
      for (const e of nameProblems) report(`${at}: Invalid value: ${q(name)}: ${e}`);
      const parsed = parseQuantity(value);
      if (parsed.error) {
        report(`${at}: Invalid value: ${q(value)}: ${parsed.error}`);
        continue;
      }
      const amount = parsed.value ?? 0;
      values[section]![name] = amount;
      if (amount < 0)
        report(`${at}: Invalid value: ${q(value)}: must be greater than or equal to 0`);
      const page = HUGEPAGES.exec(name);
      if (page) {
        const size = parseQuantity(page[1]!).value;
        if (size !== undefined && size > 0 && (amount <= 0 || !isWhole(amount / size))) {
          report(`${at}: Invalid value: ${q(value)}: must be a positive multiple of ${page[1]}`);
        }
      } else if (isExtendedResource(name) && !isWhole(amount)) {
        report(`${at}: Invalid value: ${q(value)}: must be an integer`);
      }
    }
  }
  for (const [name, request] of Object.entries(values.requests!)) {
    const limit = values.limits![name];
    const overcommitable = STANDARD_CONTAINER_RESOURCES.has(name);
    if (limit !== undefined && request > limit + 1e-9) {
      report(
        `${path}.requests: Invalid value: ${q(requests[name])}: must be less than or equal to ${name} limit of ${limits[name]}`,
      );
    }
    if (!overcommitable) {
      if (limit === undefined) {
        report(
          `${path}.limits: Required value: Limit must be set for non overcommitable resources`,
        );
      } else if (Math.abs(request - limit) > 1e-9) {
        report(
          `${path}.requests[${name}]: Invalid value: ${q(requests[name])}: must be equal to ${name} limit of ${limits[name]}`,
        );
      }
    }
  }
}

const isWhole = (n: number) => Math.abs(n - Math.round(n)) < 1e-9;

/** The quota prefix of a resource (ResourceQuota's `requests.<name>`). */
const REQUESTS_PREFIX = "requests.";

/**
 * Extended resources (helper.IsExtendedResourceName): a domain-qualified name outside
 * kubernetes.io, not `requests.*`, whose quota name `requests.<name>` is a qualified name too.
 */
function isExtendedResource(name: string): boolean {
  return (
    !isNativeResource(name) &&
    !name.startsWith(REQUESTS_PREFIX) &&
    qualifiedName(REQUESTS_PREFIX + name).length === 0
  );
}

/** helper.IsNativeResource: no domain, or one that contains `kubernetes.io/` anywhere. */
function isNativeResource(name: string): boolean {
  return !name.includes("/") || name.includes("kubernetes.io/");
}

/** validateContainerResourceName: qualified, standard or extended, no `..`. */
function resourceNameProblems(name: string): string[] {
  const problems = qualifiedName(name);
  if (name.includes("..")) problems.push("must not contain '..'");
  if (problems.length > 0) return problems;
  if (STANDARD_CONTAINER_RESOURCES.has(name) || HUGEPAGES.test(name)) return [];
  if (isNativeResource(name)) return ["must be a standard resource for containers"];
  if (!isExtendedResource(name)) return ["doesn't follow extended resource name standard"];
  return [];
}

function validateToleration(t: Obj, path: string, report: (m: string) => void) {
  const key = known(t.key) ? String(t.key) : "";
  const operator = known(t.operator) ? String(t.operator) : "Equal";
  const value = known(t.value) ? String(t.value) : "";
  if (key !== "")
    for (const e of qualifiedName(key)) report(`${path}.key: Invalid value: ${q(key)}: ${e}`);
  if (key === "" && operator !== "Exists") {
    report(
      `${path}.operator: Invalid value: ${q(operator)}: operator must be Exists when \`key\` is empty, which means "match all values and all keys"`,
    );
  }
  if (operator === "Exists" && value !== "") {
    report(
      `${path}.operator: Invalid value: ${q(value)}: value must be empty when \`operator\` is 'Exists'`,
    );
  }
  if (operator === "Equal")
    for (const e of labelValue(value)) report(`${path}.value: Invalid value: ${q(value)}: ${e}`);
  if (!["Equal", "Exists"].includes(operator)) {
    report(
      `${path}.operator: Unsupported value: ${q(operator)}: supported values: "Equal", "Exists"`,
    );
  }
  const effect = known(t.effect) ? String(t.effect) : "";
  if (!["", "NoSchedule", "PreferNoSchedule", "NoExecute"].includes(effect)) {
    report(
      `${path}.effect: Unsupported value: ${q(effect)}: supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
    );
  }
  if (known(t.toleration_seconds) && t.toleration_seconds !== "" && effect !== "NoExecute") {
    report(
      `${path}.effect: Invalid value: ${q(effect)}: effect must be 'NoExecute' when \`tolerationSeconds\` is set`,
    );
  }
}

/** Mounts name a volume, paths are unique after normalizing, none under /proc or /sys. */
function validateMounts(
  container: Obj,
  path: string,
  volumes: Set<string> | undefined,
  report: (m: string) => void,
) {
  const seen = new Set<string>();
  list(container.volume_mount).forEach((mount, i) => {
    const at = `${path}.volumeMounts[${i}]`;
    const name = String(mount.name ?? "");
    if (volumes && !volumes.has(name)) report(`${at}.name: Not found: ${q(name)}`);
    const mountPath = known(mount.mount_path) ? String(mount.mount_path) : "";
    if (mountPath === "") report(`${at}.mountPath: Required value`);
    const normalized = normalizePath(mountPath);
    if (seen.has(normalized))
      report(`${at}.mountPath: Invalid value: ${q(mountPath)}: must be unique`);
    seen.add(normalized);
    if (/^\/(proc|sys)(\/|$)/.test(normalized)) {
      report(
        `${at}.mountPath: Invalid value: ${q(mountPath)}: must not be under /proc or /sys (the runtime refuses it)`,
      );
    }
    const subPath = known(mount.sub_path) ? String(mount.sub_path) : "";
    if (subPath.startsWith("/"))
      report(`${at}.subPath: Invalid value: ${q(subPath)}: must be a relative path`);
    if (subPath.split("/").includes(".."))
      report(`${at}.subPath: Invalid value: ${q(subPath)}: must not contain '..'`);
  });
}

/** Path as the kubelet compares mount points: `//a/./b/` is `/a/b`. */
export function normalizePath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** Thrown by the harness when a planned object breaks an API server rule. */
export class KubernetesApiError extends Error {
  constructor(readonly violations: readonly ApiViolation[]) {
    super(
      `the Kubernetes API server or Coder would reject the planned objects:\n${violations
        .map((v) => `  ${v.address}: ${v.message}`)
        .join("\n")}`,
    );
    this.name = "KubernetesApiError";
  }
}
