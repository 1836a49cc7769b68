/**
 * The admission policy operators apply to the shared build namespace (packer-dev) on
 * Harvester: a ValidatingAdmissionPolicy and its binding, generated from the names the
 * template uses (`npm run admission-policy`, scripts/commands/admission-policy.ts).
 *
 * Why: in the shared namespace every workspace identity may create KubeVirt VMs, and a VM
 * spec may name any Secret of its namespace as a disk, cloud-init or access-credential
 * source, or any ServiceAccount as a `serviceAccount` volume (virt-launcher then runs with
 * that account's token); nothing in KubeVirt or Harvester checks the creator's right to
 * either. RBAC cannot say "only your own Secrets" (resourceNames are fixed names), so the
 * policy says it in CEL, over the requesting identity's own name:
 *
 * - no `serviceAccount` volume, whatever account it names;
 * - every Secret a spec names (secret volumes, cloud-init user and network data, sysprep,
 *   container disk pull secrets, SSH keys and passwords in accessCredentials, and the
 *   import credentials of a VM's DataVolume templates) is the identity's own:
 *   `<identity name>` or `<identity name>-…`;
 * - a VM (VMI, pool, replica set) carries `app.coder.io/workspace=<identity name>` when it
 *   is created or updated, and an UPDATE or DELETE touches only objects that carried it.
 *
 * It applies only to workspace identities (`system:serviceaccount:<namespace>:coder-…`), so
 * KubeVirt's controllers (a pool or replica set creating its VMs) and administrators are not
 * matched. What it cannot stop is in docs/templates/packer-builder.md ("What the policy
 * cannot stop"): console and VNC, start/stop/restart and other subresources go through
 * KubeVirt's aggregated API, not through admission of these kinds.
 */
import { stringify } from "yaml";

/** What the policy is generated from: the names the template uses. */
export interface AdmissionPolicyNames {
  /** The shared build namespace the identities live and build in (the template's identityNamespace). */
  readonly namespace: string;
  /** What every workspace identity's name starts with (`coder-` + the workspace id). */
  readonly identityPrefix: string;
  /** The label naming a build VM's workspace (the value is the identity's name). */
  readonly labelKey: string;
  /** Name of the policy and of its binding. @default "packer-builder-own-objects-<namespace>" */
  readonly name?: string;
}

/** One CEL validation: what it refuses and the message the requester gets. */
export interface PolicyValidation {
  readonly expression: string;
  readonly messageExpression: string;
  readonly reason: "Forbidden";
}

/** The kinds the policy covers, with the path of the VMI spec inside each. */
export const KUBEVIRT_KINDS = [
  { group: "kubevirt.io", resource: "virtualmachines", kind: "VirtualMachine" },
  { group: "kubevirt.io", resource: "virtualmachineinstances", kind: "VirtualMachineInstance" },
  {
    group: "kubevirt.io",
    resource: "virtualmachineinstancereplicasets",
    kind: "VirtualMachineInstanceReplicaSet",
  },
  { group: "pool.kubevirt.io", resource: "virtualmachinepools", kind: "VirtualMachinePool" },
] as const;

/** A CEL string literal (single-quoted, backslashes and quotes escaped). */
function celString(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/**
 * The policy's variables (evaluated in order; each may use the earlier ones), as
 * admissionregistration.k8s.io/v1 defines them. Only standard CEL (no string or list
 * extensions), so any conforming evaluator computes what the API server computes.
 */
export function policyVariables(
  names: AdmissionPolicyNames,
): { name: string; expression: string }[] {
  const label = celString(names.labelKey);
  // The VMI specs inside the object; [] on a DELETE (object is null) or a spec-less object.
  const specsOf = (o: string) =>
    `${o} == null || !has(${o}.spec) ? [] : ` +
    `request.kind.kind == 'VirtualMachineInstance' ? [${o}.spec] : ` +
    `request.kind.kind == 'VirtualMachine' ? (has(${o}.spec.template) && has(${o}.spec.template.spec) ? [${o}.spec.template.spec] : []) : ` +
    `request.kind.kind == 'VirtualMachineInstanceReplicaSet' ? (has(${o}.spec.template) && has(${o}.spec.template.spec) ? [${o}.spec.template.spec] : []) : ` +
    `request.kind.kind == 'VirtualMachinePool' ? (has(${o}.spec.virtualMachineTemplate) && has(${o}.spec.virtualMachineTemplate.spec) && has(${o}.spec.virtualMachineTemplate.spec.template) && has(${o}.spec.virtualMachineTemplate.spec.template.spec) ? [${o}.spec.virtualMachineTemplate.spec.template.spec] : []) : []`;
  // The VM specs (for dataVolumeTemplates): a VM's spec, a pool's VM template spec.
  const vmSpecsOf = (o: string) =>
    `${o} == null || !has(${o}.spec) ? [] : ` +
    `request.kind.kind == 'VirtualMachine' ? [${o}.spec] : ` +
    `request.kind.kind == 'VirtualMachinePool' ? (has(${o}.spec.virtualMachineTemplate) && has(${o}.spec.virtualMachineTemplate.spec) ? [${o}.spec.virtualMachineTemplate.spec] : []) : []`;
  // The workspace label of the object itself, of a VM's VMI template, and of a pool's VM template.
  const labelOf = (o: string) =>
    `${o} != null && has(${o}.metadata) && has(${o}.metadata.labels) && ${label} in ${o}.metadata.labels ? ${o}.metadata.labels[${label}] : ''`;
  return [
    // `system:serviceaccount:<namespace>:` + the name is the requester's username.
    { name: "saPrefix", expression: celString(`system:serviceaccount:${names.namespace}:`) },
    { name: "specs", expression: specsOf("object") },
    { name: "vmSpecs", expression: vmSpecsOf("object") },
    { name: "newOwner", expression: labelOf("object") },
    { name: "oldOwner", expression: labelOf("oldObject") },
  ];
}

/** `name` (a CEL string) is the requester's own: its name, or its name and `-…`. */
function own(name: string): string {
  return (
    `(variables.saPrefix + ${name} == request.userInfo.username || ` +
    `(variables.saPrefix + ${name}).startsWith(request.userInfo.username + '-'))`
  );
}

/**
 * The field at `path` (e.g. `v.cloudInitNoCloud.secretRef.name`, starting at a bound
 * variable) is absent, or names one of the requester's own objects.
 */
function absentOrOwn(path: string): string {
  const parts = path.split(".");
  const guards = parts.slice(1).map((_, i) => `!has(${parts.slice(0, i + 2).join(".")})`);
  return `(${[...guards, own(path)].join(" || ")})`;
}

/** For messages: who the requester is (the service account's full username). */
const ME = "request.userInfo.username";
/** For messages: which names are the requester's own. */
const OWN_NAMES = `'the service account name of ' + ${ME} + ', alone or followed by -…'`;

/** Where a VMI spec names a Secret, relative to one volume `v`. */
const VOLUME_SECRET_FIELDS = [
  "v.secret.secretName",
  "v.cloudInitNoCloud.secretRef.name",
  "v.cloudInitNoCloud.networkDataSecretRef.name",
  "v.cloudInitConfigDrive.secretRef.name",
  "v.cloudInitConfigDrive.networkDataSecretRef.name",
  // Proposed for KubeVirt (cloud-init vendor data); checked so that it is covered if it lands.
  "v.cloudInitNoCloud.vendorDataSecretRef.name",
  "v.cloudInitConfigDrive.vendorDataSecretRef.name",
  "v.sysprep.secret.name",
  "v.containerDisk.imagePullSecret",
];
/** Where an access credential `c` names a Secret. */
const CREDENTIAL_SECRET_FIELDS = [
  "c.sshPublicKey.source.secret.secretName",
  "c.userPassword.source.secret.secretName",
];
/** Where a DataVolume template `t` of a VM names the Secret its importer authenticates with. */
const DATA_VOLUME_SECRET_FIELDS = ["http", "registry", "s3", "gcs", "imageio", "vddk"].map(
  (source) => `t.spec.source.${source}.secretRef`,
);

/** The validations, each refusing one thing. */
export function policyValidations(names: AdmissionPolicyNames): PolicyValidation[] {
  const label = names.labelKey;
  const volumes = (check: string) =>
    `variables.specs.all(s, !has(s.volumes) || s.volumes.all(v, ${check}))`;
  const all = (fields: readonly string[]) => fields.map(absentOrOwn).join(" && ");
  const mine = (owner: string) => `(variables.saPrefix + ${owner} == request.userInfo.username)`;
  return [
    {
      expression: volumes("!has(v.serviceAccount)"),
      messageExpression: `'a workspace identity may not give a VM a serviceAccount volume: virt-launcher would run with that account\\'s token'`,
      reason: "Forbidden",
    },
    {
      expression: volumes(all(VOLUME_SECRET_FIELDS)),
      messageExpression: `'a VM volume (secret, cloud-init secretRef or networkDataSecretRef, sysprep secret, containerDisk imagePullSecret) may only name Secrets called ' + ${OWN_NAMES}`,
      reason: "Forbidden",
    },
    {
      expression: `variables.specs.all(s, !has(s.accessCredentials) || s.accessCredentials.all(c, ${all(CREDENTIAL_SECRET_FIELDS)}))`,
      messageExpression: `'accessCredentials may only name Secrets called ' + ${OWN_NAMES}`,
      reason: "Forbidden",
    },
    {
      expression: `variables.vmSpecs.all(s, !has(s.dataVolumeTemplates) || s.dataVolumeTemplates.all(t, ${all(DATA_VOLUME_SECRET_FIELDS)}))`,
      messageExpression: `'a DataVolume template\\'s import source may only name Secrets called ' + ${OWN_NAMES}`,
      reason: "Forbidden",
    },
    {
      expression: `request.operation == 'DELETE' || ${mine("variables.newOwner")}`,
      messageExpression: `'label it ${label}=<your workspace> (PACKER_BUILDER_VM_LABEL): ' + ${ME} + ' creates and updates only objects labeled as its own'`,
      reason: "Forbidden",
    },
    {
      expression: `request.operation == 'CREATE' || ${mine("variables.oldOwner")}`,
      messageExpression: `'this object is not labeled ${label}=<your workspace>: ' + ${ME} + ' may update or delete only its own'`,
      reason: "Forbidden",
    },
  ];
}

/** Only workspace identities of the namespace are matched; everyone else is not constrained. */
export function policyMatchCondition(names: AdmissionPolicyNames): string {
  return `request.userInfo.username.startsWith(${celString(`system:serviceaccount:${names.namespace}:${names.identityPrefix}`)})`;
}

/** The ValidatingAdmissionPolicy and its binding, as Kubernetes objects. */
export function admissionPolicyObjects(names: AdmissionPolicyNames): Record<string, unknown>[] {
  const name = names.name ?? `packer-builder-own-objects-${names.namespace}`;
  const labels = {
    "app.kubernetes.io/managed-by": "coder-cdktf",
    "app.kubernetes.io/part-of": "packer-builder",
  };
  const groups = [...new Set(KUBEVIRT_KINDS.map((k) => k.group))];
  return [
    {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingAdmissionPolicy",
      metadata: { name, labels },
      spec: {
        failurePolicy: "Fail",
        matchConstraints: {
          resourceRules: groups.map((group) => ({
            apiGroups: [group],
            apiVersions: ["*"],
            operations: ["CREATE", "UPDATE", "DELETE"],
            resources: KUBEVIRT_KINDS.filter((k) => k.group === group).map((k) => k.resource),
          })),
        },
        matchConditions: [{ name: "workspace-identity", expression: policyMatchCondition(names) }],
        variables: policyVariables(names),
        validations: policyValidations(names),
      },
    },
    {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingAdmissionPolicyBinding",
      metadata: { name, labels },
      spec: {
        policyName: name,
        validationActions: ["Deny"],
        matchResources: {
          namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": names.namespace } },
        },
      },
    },
  ];
}

/** The objects as one YAML file for `kubectl apply -f`. */
export function admissionPolicyYaml(names: AdmissionPolicyNames): string {
  const header =
    `# Generated by coder-cdktf (npm run admission-policy) for the packer-builder template's shared\n` +
    `# build namespace ${names.namespace}. Apply on Harvester: kubectl apply -f <this file>.\n` +
    `# What it refuses and what it cannot stop: docs/templates/packer-builder.md.\n`;
  return (
    header +
    admissionPolicyObjects(names)
      .map((o) => `---\n${stringify(o, { lineWidth: 0 })}`)
      .join("")
  );
}
