/**
 * The admission policy operators apply on Harvester to every namespace packer-builder builds
 * in: the shared build namespace (packer-dev) and each workspace's own namespace
 * (per-workspace mode, selected by the label the template puts on them). A
 * ValidatingAdmissionPolicy and its bindings, generated from the names the template uses
 * (`npm run admission-policy`, scripts/commands/admission-policy.ts).
 *
 * Why: every workspace identity of a namespace may create KubeVirt VMs and CDI DataVolumes
 * there, and their specs may name any Secret or ConfigMap of the namespace (disks, cloud-init,
 * access credentials, pull secrets, import credentials and headers), any ServiceAccount (a
 * `serviceAccount` volume: virt-launcher then runs with that account's token), a directory
 * of the node (`hostDisk`) or a Multus network of another namespace; nothing in KubeVirt, CDI
 * or Harvester checks the creator's right to any of them. RBAC cannot say "only your own
 * Secrets" (resourceNames are fixed names), so the policy says it in CEL, over the requesting
 * identity's own name:
 *
 * - no `serviceAccount` and no `hostDisk` volume;
 * - every Secret and ConfigMap a spec names is the identity's own: `<identity name>` or
 *   `<identity name>-…` (the fields: {@link VOLUME_SECRET_FIELDS}, {@link VOLUME_CONFIG_MAP_FIELDS},
 *   {@link CREDENTIAL_SECRET_FIELDS}, {@link KERNEL_BOOT_SECRET_FIELD}, and the DataVolume
 *   import sources' `secretRef` and `secretExtraHeaders`, in a VM's DataVolume templates and
 *   in standalone DataVolumes);
 * - a Multus network is the namespace's own or one of the namespaces the operator offers
 *   ({@link AdmissionPolicyNames.networkNamespaces});
 * - a VM (VMI, pool, replica set) and every template inside it carry
 *   `app.coder.io/workspace=<identity name>` when created or updated, and an UPDATE or DELETE
 *   touches only objects that carried it; a DataVolume may be unlabeled (the build tools
 *   make them), but one labeled as another workspace's is refused.
 *
 * It applies only to workspace identities of the request's namespace
 * (`system:serviceaccount:<namespace>:coder-…`), so KubeVirt's and CDI's controllers (a pool
 * creating its VMs, a VM its DataVolumes) and administrators are not matched. What it cannot
 * stop is in docs/templates/packer-builder.md ("What the policy cannot stop"): console and
 * VNC and the other subresources go through KubeVirt's aggregated API, not through admission
 * of these kinds.
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
  /** The label the template puts on the namespaces it creates; the second binding selects by it. */
  readonly namespaceLabel: { readonly key: string; readonly value: string };
  /**
   * Namespaces whose Multus networks (NetworkAttachmentDefinitions) a VM may join besides its
   * own namespace's: where the operators keep the build networks.
   * @default ["harvester-public"] (the public namespace, where the template's documented Role reads them)
   */
  readonly networkNamespaces: readonly string[];
  /** Name of the policy and of its binding. @default "packer-builder-own-objects-<namespace>" */
  readonly name?: string;
}

/** One CEL validation: what it refuses and the message the requester gets. */
export interface PolicyValidation {
  readonly expression: string;
  readonly messageExpression: string;
  readonly reason: "Forbidden";
}

/** The kinds the policy covers (where each holds its VMI and DataVolume specs: {@link policyVariables}). */
export const KUBEVIRT_KINDS = [
  { group: "kubevirt.io", resource: "virtualmachines", kind: "VirtualMachine" },
  { group: "kubevirt.io", resource: "virtualmachineinstances", kind: "VirtualMachineInstance" },
  {
    group: "kubevirt.io",
    resource: "virtualmachineinstancereplicasets",
    kind: "VirtualMachineInstanceReplicaSet",
  },
  { group: "pool.kubevirt.io", resource: "virtualmachinepools", kind: "VirtualMachinePool" },
  { group: "cdi.kubevirt.io", resource: "datavolumes", kind: "DataVolume" },
] as const;

/** A CEL string literal (single-quoted, backslashes and quotes escaped). */
export function celString(text: string): string {
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
  const template = (o: string) => `has(${o}.spec.template) && has(${o}.spec.template.spec)`;
  const poolVm = (o: string) =>
    `has(${o}.spec.virtualMachineTemplate) && has(${o}.spec.virtualMachineTemplate.spec)`;
  // The VMI specs inside the object; [] on a DELETE (object is null) or a spec-less object.
  const specsOf = (o: string) =>
    `${o} == null || !has(${o}.spec) ? [] : ` +
    `request.kind.kind == 'VirtualMachineInstance' ? [${o}.spec] : ` +
    `request.kind.kind == 'VirtualMachine' ? (${template(o)} ? [${o}.spec.template.spec] : []) : ` +
    `request.kind.kind == 'VirtualMachineInstanceReplicaSet' ? (${template(o)} ? [${o}.spec.template.spec] : []) : ` +
    `request.kind.kind == 'VirtualMachinePool' ? (${poolVm(o)} && has(${o}.spec.virtualMachineTemplate.spec.template) && has(${o}.spec.virtualMachineTemplate.spec.template.spec) ? [${o}.spec.virtualMachineTemplate.spec.template.spec] : []) : []`;
  // The VM specs (for dataVolumeTemplates): a VM's spec, a pool's VM template spec.
  const vmSpecsOf = (o: string) =>
    `${o} == null || !has(${o}.spec) ? [] : ` +
    `request.kind.kind == 'VirtualMachine' ? [${o}.spec] : ` +
    `request.kind.kind == 'VirtualMachinePool' ? (${poolVm(o)} ? [${o}.spec.virtualMachineTemplate.spec] : []) : []`;
  // Every DataVolume spec: a standalone DataVolume's, and those of a VM's DataVolume templates.
  const dataVolumeSpecs =
    `(request.kind.kind == 'DataVolume' && object != null && has(object.spec) ? [object.spec] : []) + ` +
    `(variables.vmSpecs.size() == 0 || !has(variables.vmSpecs[0].dataVolumeTemplates) ? [] : ` +
    `variables.vmSpecs[0].dataVolumeTemplates.filter(t, has(t.spec)).map(t, t.spec))`;
  return [
    // `system:serviceaccount:<namespace>:` + the name is the requester's username: workspace
    // identities live in the namespace they build in (the shared one, or their own).
    { name: "saPrefix", expression: `'system:serviceaccount:' + request.namespace + ':'` },
    { name: "specs", expression: specsOf("object") },
    { name: "vmSpecs", expression: vmSpecsOf("object") },
    { name: "dataVolumeSpecs", expression: dataVolumeSpecs },
    { name: "newOwner", expression: labelOf(names, "object") },
    { name: "oldOwner", expression: labelOf(names, "oldObject") },
    { name: "templateOwners", expression: templateOwnersOf(names, "object") },
  ];
}

/** The workspace label's value on `o` (a CEL path that may be null), or '' without it. */
function labelOf(names: AdmissionPolicyNames, o: string): string {
  const label = celString(names.labelKey);
  return `(${o} != null && has(${o}.metadata) && has(${o}.metadata.labels) && ${label} in ${o}.metadata.labels ? ${o}.metadata.labels[${label}] : '')`;
}

/**
 * The workspace label's values on the templates inside `o`: a VM's and a replica set's VMI
 * template, a pool's VM template and the VMI template inside it ('' for one without it);
 * [] for a VMI, a DataVolume or a DELETE. The objects KubeVirt makes from them carry these.
 */
function templateOwnersOf(names: AdmissionPolicyNames, o: string): string {
  const vmt = `${o}.spec.virtualMachineTemplate`;
  const label = (t: string) => labelOf(names, t);
  return (
    `${o} == null || !has(${o}.spec) ? [] : ` +
    `request.kind.kind == 'VirtualMachine' || request.kind.kind == 'VirtualMachineInstanceReplicaSet' ? ` +
    `(has(${o}.spec.template) ? [${label(`${o}.spec.template`)}] : ['']) : ` +
    `request.kind.kind == 'VirtualMachinePool' ? (has(${vmt}) ? [${label(vmt)}] + ` +
    `(has(${vmt}.spec) && has(${vmt}.spec.template) ? [${label(`${vmt}.spec.template`)}] : ['']) : ['']) : []`
  );
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
export const VOLUME_SECRET_FIELDS = [
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
/** Where a VMI spec names a ConfigMap, relative to one volume `v` (another workspace's files). */
export const VOLUME_CONFIG_MAP_FIELDS = ["v.configMap.name", "v.sysprep.configMap.name"];
/** Where an access credential `c` names a Secret. */
export const CREDENTIAL_SECRET_FIELDS = [
  "c.sshPublicKey.source.secret.secretName",
  "c.userPassword.source.secret.secretName",
];
/** Where a VMI spec `s` names the pull secret of its kernel boot container. */
export const KERNEL_BOOT_SECRET_FIELD = "s.domain.firmware.kernelBoot.container.imagePullSecret";
/** The DataVolume import sources that name a Secret (`secretRef`), relative to a spec `d`. */
const DATA_VOLUME_SOURCES = ["http", "registry", "s3", "gcs", "imageio", "vddk"];

/**
 * A DataVolume spec `d` names only the requester's Secrets: each source's `secretRef`, and
 * the Secrets of http's `secretExtraHeaders` (each holds a header the importer sends to the
 * source's URL, which the requester chooses).
 */
function dataVolumeSecretsOwn(): string {
  const refs = DATA_VOLUME_SOURCES.map((source) => absentOrOwn(`d.source.${source}.secretRef`));
  const headers = `(!has(d.source) || !has(d.source.http) || !has(d.source.http.secretExtraHeaders) || d.source.http.secretExtraHeaders.all(h, ${own("h")}))`;
  return [...refs, headers].join(" && ");
}

/** A Multus network `n` is the namespace's own, or in one of the offered namespaces. */
function networkOffered(names: AdmissionPolicyNames): string {
  const offered = `[${["request.namespace", ...names.networkNamespaces.map(celString)].join(", ")}]`;
  // `<name>` is the VMI's namespace's; `<namespace>/<name>` names another namespace's.
  return (
    `!has(n.multus) || !has(n.multus.networkName) || !n.multus.networkName.contains('/') || ` +
    `${offered}.exists(ns, n.multus.networkName.startsWith(ns + '/'))`
  );
}

/** The validations, each refusing one thing. */
export function policyValidations(names: AdmissionPolicyNames): PolicyValidation[] {
  return [...referenceValidations(names), ...ownershipValidations(names)];
}

/** What a spec may reference: no account or host path, only own Secrets and ConfigMaps, offered networks. */
function referenceValidations(names: AdmissionPolicyNames): PolicyValidation[] {
  const volumes = (check: string) =>
    `variables.specs.all(s, !has(s.volumes) || s.volumes.all(v, ${check}))`;
  const all = (fields: readonly string[]) => fields.map(absentOrOwn).join(" && ");
  const refuse = (expression: string, message: string): PolicyValidation => ({
    expression,
    messageExpression: message,
    reason: "Forbidden",
  });
  const offered = names.networkNamespaces;
  return [
    refuse(
      volumes("!has(v.serviceAccount)"),
      `'a workspace identity may not give a VM a serviceAccount volume: virt-launcher would run with that account\\'s token'`,
    ),
    refuse(
      volumes("!has(v.hostDisk)"),
      `'a workspace identity may not give a VM a hostDisk volume: it is a directory of the node'`,
    ),
    refuse(
      volumes(all(VOLUME_SECRET_FIELDS)),
      `'a VM volume (secret, cloud-init secretRef or networkDataSecretRef, sysprep secret, containerDisk imagePullSecret) may only name Secrets called ' + ${OWN_NAMES}`,
    ),
    refuse(
      volumes(all(VOLUME_CONFIG_MAP_FIELDS)),
      `'a VM volume (configMap, sysprep configMap) may only name ConfigMaps called ' + ${OWN_NAMES}`,
    ),
    refuse(
      `variables.specs.all(s, !has(s.accessCredentials) || s.accessCredentials.all(c, ${all(CREDENTIAL_SECRET_FIELDS)}))`,
      `'accessCredentials may only name Secrets called ' + ${OWN_NAMES}`,
    ),
    refuse(
      `variables.specs.all(s, ${absentOrOwn(KERNEL_BOOT_SECRET_FIELD)})`,
      `'a kernelBoot container\\'s imagePullSecret may only name Secrets called ' + ${OWN_NAMES}`,
    ),
    refuse(
      `variables.dataVolumeSpecs.all(d, ${dataVolumeSecretsOwn()})`,
      `'a DataVolume\\'s import source (secretRef, http secretExtraHeaders) may only name Secrets called ' + ${OWN_NAMES}`,
    ),
    refuse(
      `variables.specs.all(s, !has(s.networks) || s.networks.all(n, ${networkOffered(names)}))`,
      `'a VM may only join Multus networks of its own namespace` +
        (offered.length > 0 ? ` or of ${offered.join(", ")}` : "") +
        `'`,
    ),
  ];
}

/** Whose objects a request may create, change or delete: its own, by the workspace label. */
function ownershipValidations(names: AdmissionPolicyNames): PolicyValidation[] {
  const label = names.labelKey;
  const mine = (owner: string) => `(variables.saPrefix + ${owner} == request.userInfo.username)`;
  // The build tools make DataVolumes without labels: one unlabeled is nobody's (README).
  const unlabeledDataVolume = (owner: string) =>
    `(request.kind.kind == 'DataVolume' && ${owner} == '')`;
  return [
    {
      expression: `request.operation == 'DELETE' || ${mine("variables.newOwner")} || ${unlabeledDataVolume("variables.newOwner")}`,
      messageExpression: `'label it ${label}=<your workspace> (PACKER_BUILDER_VM_LABEL): ' + ${ME} + ' creates and updates only objects labeled as its own'`,
      reason: "Forbidden",
    },
    {
      expression: `request.operation == 'DELETE' || variables.templateOwners.all(o, ${mine("o")})`,
      messageExpression: `'label its templates too (spec.template.metadata.labels; a pool\\'s virtualMachineTemplate and its template) ${label}=<your workspace>: the VMs and VMIs made from them are ' + ${ME} + '\\'s'`,
      reason: "Forbidden",
    },
    {
      expression: `request.operation == 'CREATE' || ${mine("variables.oldOwner")} || ${unlabeledDataVolume("variables.oldOwner")}`,
      messageExpression: `'this object is not labeled ${label}=<your workspace>: ' + ${ME} + ' may update or delete only its own'`,
      reason: "Forbidden",
    },
  ];
}

/** Only workspace identities of the request's namespace are matched; everyone else is not constrained. */
export function policyMatchCondition(names: AdmissionPolicyNames): string {
  return `request.userInfo.username.startsWith('system:serviceaccount:' + request.namespace + ':' + ${celString(names.identityPrefix)})`;
}

/** The labels of every object the project generates for operators to apply. */
export const GENERATED_OBJECT_LABELS = {
  "app.kubernetes.io/managed-by": "coder-cdktf",
  "app.kubernetes.io/part-of": "packer-builder",
};

/** One ValidatingAdmissionPolicyBinding that denies what `policyName` refuses. */
export function denyingBinding(
  name: string,
  policyName: string,
  matchResources?: Record<string, unknown>,
): Record<string, unknown> {
  return {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingAdmissionPolicyBinding",
    metadata: { name, labels: GENERATED_OBJECT_LABELS },
    spec: {
      policyName,
      validationActions: ["Deny"],
      ...(matchResources === undefined ? {} : { matchResources }),
    },
  };
}

/**
 * The ValidatingAdmissionPolicy and its two bindings, as Kubernetes objects: one binds it to
 * the shared build namespace by name (the operators own that namespace and its labels), the
 * other to every namespace carrying the template's namespace label (the per-workspace ones).
 */
export function admissionPolicyObjects(names: AdmissionPolicyNames): Record<string, unknown>[] {
  const name = names.name ?? `packer-builder-own-objects-${names.namespace}`;
  const groups = [...new Set(KUBEVIRT_KINDS.map((k) => k.group))];
  return [
    {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingAdmissionPolicy",
      metadata: { name, labels: GENERATED_OBJECT_LABELS },
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
    denyingBinding(name, name, {
      namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": names.namespace } },
    }),
    denyingBinding(`${name}-labeled-namespaces`, name, {
      namespaceSelector: {
        matchLabels: { [names.namespaceLabel.key]: names.namespaceLabel.value },
      },
    }),
  ];
}

/** Objects as one YAML file for `kubectl apply -f`, after a comment header. */
export function objectsYaml(header: string, objects: readonly Record<string, unknown>[]): string {
  return header + objects.map((o) => `---\n${stringify(o, { lineWidth: 0 })}`).join("");
}

/** The objects as one YAML file for `kubectl apply -f`. */
export function admissionPolicyYaml(names: AdmissionPolicyNames): string {
  const header =
    `# Generated by coder-cdktf (npm run admission-policy) for the packer-builder template's build\n` +
    `# namespaces: ${names.namespace}, and every namespace labeled ${names.namespaceLabel.key}=${names.namespaceLabel.value}.\n` +
    `# Apply on Harvester: kubectl apply -f <this file>.\n` +
    `# What it refuses and what it cannot stop: docs/templates/packer-builder.md.\n`;
  return objectsYaml(header, admissionPolicyObjects(names));
}
