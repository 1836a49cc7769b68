import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { App, Fn, Op, TerraformLocal, TerraformVariable, Token } from "../../lib/core/cdk";
import { TemplateStack } from "../../lib/constructs/template-stack";
import { findPolicyViolations, PolicyViolationError } from "../../lib/policy";
import { DataVolume } from "../../lib/constructs/data-volume";
import { WorkspaceData } from "../../lib/constructs/workspace-data";
import { WorkspaceAgent } from "../../lib/constructs/workspace-agent";
import { TEMPLATES } from "../../app/registry";
import {
  DeploymentV1,
  type DeploymentV1SpecTemplateSpec,
} from "@cdktf/provider-kubernetes/lib/deployment-v1";
import { PodV1 } from "@cdktf/provider-kubernetes/lib/pod-v1";
import { RoleV1 } from "@cdktf/provider-kubernetes/lib/role-v1";
import { RoleBindingV1 } from "@cdktf/provider-kubernetes/lib/role-binding-v1";
import { ClusterRoleBindingV1 } from "@cdktf/provider-kubernetes/lib/cluster-role-binding-v1";
import { ServiceAccountV1 } from "@cdktf/provider-kubernetes/lib/service-account-v1";
import { SecretV1 } from "@cdktf/provider-kubernetes/lib/secret-v1";
import { PersistentVolumeClaimV1 } from "@cdktf/provider-kubernetes/lib/persistent-volume-claim-v1";
import { TerraformDataSource, TerraformResource } from "../../lib/core/cdk";
import { coderProvider } from "../../lib/constructs/providers";
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { Manifest } from "@cdktf/provider-kubernetes/lib/manifest";
import { declareLimits } from "../../lib/policy";
import { hcl } from "../../lib/core/expr";

const FRONT = { displayName: "T", description: "d", icon: "/icon/k8s.png" };
const LIMITS = { limits: { cpu: "1", memory: "1Gi" } };

/** Synthesizes a template stack built by `build`; returns the error synthesis threw, if any. */
function synthError(build: (stack: TemplateStack) => void): Error | undefined {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "policy-"));
  try {
    const app = new App({ outdir });
    const stack = new TemplateStack(app, "t", {
      sourceDir: "templates/kubernetes",
      frontMatter: FRONT,
    });
    coderProvider(stack);
    new KubernetesProvider(stack, "kubernetes", {});
    build(stack);
    app.synth();
    return undefined;
  } catch (e) {
    return e as Error;
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

function expectViolation(
  build: (stack: TemplateStack) => void,
  rule: string,
  constructPath: string,
  reason: RegExp,
): void {
  const error = synthError(build);
  expect(error).toBeInstanceOf(PolicyViolationError);
  const violation = error as PolicyViolationError;
  expect(violation.rule).toBe(rule);
  expect(violation.constructPath).toBe(constructPath);
  expect(violation.message).toContain(constructPath);
  expect(violation.message).toMatch(reason);
}

/** A one-container deployment whose pod spec is `pod`. */
function deployment(
  stack: TemplateStack,
  pod: DeploymentV1SpecTemplateSpec,
  id = "main",
): DeploymentV1 {
  return new DeploymentV1(stack, id, {
    metadata: { name: "w" },
    spec: {
      selector: { matchLabels: { a: "b" } },
      template: { metadata: { labels: { a: "b" } }, spec: pod },
    },
  });
}

function gate(
  stack: TemplateStack,
  name: string,
  defaultValue: unknown = false,
): TerraformVariable {
  return new TerraformVariable(stack, name, { type: "bool", default: defaultValue });
}

describe("no-rbac-authoring", () => {
  it.each([
    [
      "kubernetes_role_v1",
      (s: TemplateStack) => new RoleV1(s, "reader", { metadata: { name: "r" }, rule: [] }),
    ],
    [
      "kubernetes_cluster_role_binding_v1",
      (s: TemplateStack) =>
        new ClusterRoleBindingV1(s, "reader", {
          metadata: { name: "r" },
          roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
          subject: [],
        }),
    ],
    // Older type names, written through the raw escape hatch: still caught.
    [
      "kubernetes_cluster_role",
      (s: TemplateStack) =>
        new TerraformResource(s, "reader", { terraformResourceType: "kubernetes_cluster_role" }),
    ],
    [
      "kubernetes_role",
      (s: TemplateStack) =>
        new TerraformResource(s, "reader", { terraformResourceType: "kubernetes_role" }),
    ],
  ])("fails synth on %s, naming the construct", (type, make) => {
    expectViolation(
      (s) => make(s),
      "no-rbac-authoring",
      "t/reader",
      new RegExp(`${type}\\.reader: templates must not author RBAC`),
    );
  });

  it.each([
    [
      "ClusterRoleBinding",
      {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRoleBinding",
        metadata: { name: "x" },
        roleRef: {
          apiGroup: "rbac.authorization.k8s.io",
          kind: "ClusterRole",
          name: "cluster-admin",
        },
        subjects: [{ kind: "Group", name: "system:authenticated" }],
      },
      /a ClusterRoleBinding grants permissions cluster-wide/,
    ],
    [
      "Role",
      {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "Role",
        metadata: { name: "x", namespace: "n" },
        rules: [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }],
      },
      /it writes RBAC rules/,
    ],
  ])("fails synth on a %s written as a kubernetes_manifest", (kind, manifest, what) => {
    expectViolation(
      (s) => new Manifest(s, "sneaky", { manifest }),
      "no-rbac-authoring",
      "t/sneaky",
      new RegExp(
        `kubernetes_manifest\\.sneaky \\(kind ${kind}\\): templates must not author RBAC \\(${what.source}\\)`,
      ),
    );
  });

  it("lets a template bind an existing Role with a RoleBinding", () => {
    const error = synthError((s) => {
      new ServiceAccountV1(s, "sa", { metadata: { name: "sa", namespace: "n" } });
      new RoleBindingV1(s, "reader", {
        metadata: { name: "r", namespace: "n" },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "pod-reader" },
        subject: [{ kind: "ServiceAccount", name: "sa", namespace: "n" }],
      });
    });
    expect(error).toBeUndefined();
  });
});

describe("inspectable-resources (the policies fail closed)", () => {
  it.each([
    [
      "a privileged hostPath pod as a kubernetes_manifest",
      (s: TemplateStack) =>
        new Manifest(s, "sneaky", {
          manifest: {
            apiVersion: "v1",
            kind: "Pod",
            metadata: { name: "p", namespace: "n" },
            spec: {
              containers: [{ name: "c", image: "i", securityContext: { privileged: true } }],
              volumes: [{ name: "root", hostPath: { path: "/" } }],
            },
          },
        }),
      /kubernetes_manifest\.sneaky: a generic manifest \(kind Pod\) is refused: the template policies cannot inspect it/,
    ],
    [
      "a kubernetes_manifest whose kind is an expression",
      (s: TemplateStack) => {
        const kind = new TerraformVariable(s, "kind", { type: "string", default: "Pod" });
        return new Manifest(s, "sneaky", {
          manifest: { apiVersion: "v1", kind: kind.stringValue, metadata: { name: "p" } },
        });
      },
      /kubernetes_manifest\.sneaky: a generic manifest is refused/,
    ],
    [
      "another provider's generic resource",
      (s: TemplateStack) =>
        new TerraformResource(s, "sneaky", { terraformResourceType: "kubectl_manifest" }),
      /kubectl_manifest\.sneaky: resource type kubectl_manifest is one the template policies cannot inspect/,
    ],
    [
      "a Kubernetes type no rule reads",
      (s: TemplateStack) =>
        new TerraformResource(s, "sneaky", {
          terraformResourceType: "kubernetes_mutating_webhook_configuration_v1",
        }),
      /resource type kubernetes_mutating_webhook_configuration_v1 is one the template policies cannot inspect/,
    ],
    [
      "a provisioner running commands",
      (s: TemplateStack) => {
        const r = new TerraformResource(s, "sneaky", { terraformResourceType: "terraform_data" });
        r.addOverride("provisioner", [{ "local-exec": { command: "kubectl apply -f rbac.yaml" } }]);
        return r;
      },
      /terraform_data\.sneaky: provisioner blocks run commands with the Terraform provisioner's credentials/,
    ],
  ])("fails synth on %s", (_what, make, reason) => {
    expectViolation((s) => make(s), "inspectable-resources", "t/sneaky", reason);
  });

  it("fails synth on a data source that runs a program at plan time", () => {
    expectViolation(
      (s) =>
        new TerraformDataSource(s, "sneaky", {
          terraformResourceType: "external",
          terraformGeneratorMetadata: { providerName: "external" },
        }),
      "inspectable-resources",
      "t/sneaky",
      /data\.external\.sneaky: data source external is one the template policies cannot inspect/,
    );
  });

  it("lets templates read Coder's and the cluster's data sources", () => {
    const error = synthError((s) => {
      new WorkspaceData(s, "workspace");
      new TerraformDataSource(s, "pods", { terraformResourceType: "kubernetes_resources" });
    });
    expect(error).toBeUndefined();
  });
});

describe("role-binding-subjects", () => {
  const binding = (
    s: TemplateStack,
    subject: Record<string, string>[],
    provider?: KubernetesProvider,
  ) =>
    new RoleBindingV1(s, "grant", {
      provider,
      metadata: { name: "g", namespace: "n" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "builder" },
      subject: subject.map((x) => ({
        kind: x.kind,
        name: x.name,
        namespace: x.namespace,
        apiGroup: x.apiGroup,
      })),
    });

  it.each([
    [
      "a Group",
      [{ kind: "Group", name: "system:authenticated", apiGroup: "rbac.authorization.k8s.io" }],
      /subject\[0\] \(Group \/system:authenticated\)/,
    ],
    [
      "a User",
      [{ kind: "User", name: "admin", apiGroup: "rbac.authorization.k8s.io" }],
      /subject\[0\] \(User \/admin\)/,
    ],
    [
      "another workload's ServiceAccount",
      [{ kind: "ServiceAccount", name: "default", namespace: "kube-system" }],
      /subject\[0\] \(ServiceAccount kube-system\/default\)/,
    ],
  ])("fails synth on %s as subject", (_what, subject, where) => {
    expectViolation(
      (s) => {
        new ServiceAccountV1(s, "own", { metadata: { name: "ws", namespace: "n" } });
        binding(s, subject);
      },
      "role-binding-subjects",
      "t/grant",
      new RegExp(
        `${where.source}: a RoleBinding may bind only the workspace's own ServiceAccounts`,
      ),
    );
  });

  it("fails synth when the account lives on another cluster than the binding", () => {
    expectViolation(
      (s) => {
        const other = new KubernetesProvider(s, "other", { alias: "other" });
        new ServiceAccountV1(s, "own", { metadata: { name: "ws", namespace: "n" } });
        binding(s, [{ kind: "ServiceAccount", name: "ws", namespace: "n" }], other);
      },
      "role-binding-subjects",
      "t/grant",
      /on the same cluster, kubernetes\.other/,
    );
  });

  it("accepts the template's own account, by value or by reference", () => {
    const error = synthError((s) => {
      const own = new ServiceAccountV1(s, "own", { metadata: { name: "ws", namespace: "n" } });
      binding(s, [
        { kind: "ServiceAccount", name: "ws", namespace: "n" },
        { kind: "ServiceAccount", name: own.metadata.name, namespace: own.metadata.namespace },
      ]);
    });
    expect(error).toBeUndefined();
  });
});

describe("no-privileged-containers", () => {
  const container = (securityContext: Record<string, unknown>) => ({
    name: "dev",
    image: "i",
    resources: LIMITS,
    securityContext,
  });

  it("fails synth on a literally privileged container", () => {
    expectViolation(
      (s) => deployment(s, { container: [container({ privileged: true })] }),
      "no-privileged-containers",
      "t/main",
      /kubernetes_deployment_v1\.main spec\.template\.spec\.container\[0\]\.security_context\.privileged: a privileged container is only allowed behind the opt-in variable "allow_privileged"/,
    );
  });

  it("fails synth when privilege comes from an expression without the gate", () => {
    expectViolation(
      (s) => {
        const other = gate(s, "repository_wants_it");
        deployment(s, { container: [container({ privileged: Op.or(other.booleanValue, false) })] });
      },
      "no-privileged-containers",
      "t/main",
      /privileged: a privileged container is only allowed behind/,
    );
  });

  it("fails synth when the gate is OR-ed instead of AND-ed", () => {
    expectViolation(
      (s) => {
        const allow = gate(s, "allow_privileged");
        const wants = gate(s, "wants");
        deployment(s, {
          container: [container({ privileged: Op.or(allow.booleanValue, wants.booleanValue) })],
        });
      },
      "no-privileged-containers",
      "t/main",
      /only allowed behind the opt-in variable "allow_privileged"/,
    );
  });

  it("fails synth when the gate variable is on by default", () => {
    expectViolation(
      (s) => {
        const allow = gate(s, "allow_privileged", true);
        deployment(s, { container: [container({ privileged: Op.and(allow.booleanValue, true) })] });
      },
      "no-privileged-containers",
      "t/main",
      /"allow_privileged" must default to false/,
    );
  });

  it("fails synth on an ungated Unconfined seccomp profile", () => {
    expectViolation(
      (s) => deployment(s, { container: [container({ seccompProfile: { type: "Unconfined" } })] }),
      "no-privileged-containers",
      "t/main",
      /seccomp_profile\.type: an Unconfined seccomp profile is only allowed behind/,
    );
  });

  it("fails synth on a seccomp type given as an expression: it may evaluate to Unconfined", () => {
    expectViolation(
      (s) => {
        const profile = new TerraformVariable(s, "seccomp_type", { type: "string" });
        deployment(s, {
          container: [container({ seccompProfile: { type: profile.stringValue } })],
        });
      },
      "no-privileged-containers",
      "t/main",
      /seccomp_profile\.type: an Unconfined seccomp profile is only allowed behind/,
    );
  });

  it("accepts a literal seccomp type other than Unconfined without the gate", () => {
    const error = synthError((s) =>
      deployment(s, { container: [container({ seccompProfile: { type: "RuntimeDefault" } })] }),
    );
    expect(error).toBeUndefined();
  });

  it("accepts `var.allow_privileged && …`, directly or through a local", () => {
    const error = synthError((s) => {
      const allow = gate(s, "allow_privileged");
      const wants = gate(s, "wants");
      const local = new TerraformLocal(
        s,
        "privileged",
        Op.and(allow.booleanValue, wants.booleanValue),
      );
      deployment(s, {
        container: [container({ privileged: Op.and(allow.booleanValue, wants.booleanValue) })],
        initContainer: [{ ...container({ privileged: local.asBoolean }), name: "init" }],
      });
    });
    expect(error).toBeUndefined();
  });

  it("accepts a seccomp profile in a dynamic block gated by the variable", () => {
    const error = synthError((s) => {
      const allow = gate(s, "allow_privileged");
      const d = deployment(s, { container: [container({})] });
      d.addOverride("spec.template.spec.container.0.security_context.dynamic.seccomp_profile", {
        for_each: Fn.conditional(allow.booleanValue, [1], []),
        content: { type: "Unconfined" },
      });
    });
    expect(error).toBeUndefined();
  });
});

describe("no-host-path-volumes", () => {
  it("fails synth on a hostPath volume", () => {
    expectViolation(
      (s) =>
        deployment(s, {
          container: [{ name: "dev", image: "i", resources: LIMITS }],
          volume: [{ name: "docker", hostPath: { path: "/var/run/docker.sock" } }],
        }),
      "no-host-path-volumes",
      "t/main",
      /spec\.template\.spec\.volume\[0\]\.host_path: a hostPath volume is only allowed behind the opt-in variable "allow_host_path"/,
    );
  });

  it("accepts a hostPath volume from a dynamic block gated by allow_host_path", () => {
    const error = synthError((s) => {
      const allow = gate(s, "allow_host_path");
      const d = deployment(s, { container: [{ name: "dev", image: "i", resources: LIMITS }] });
      d.addOverride("spec.template.spec.dynamic.volume", {
        for_each: Fn.conditional(allow.booleanValue, ["x"], []),
        content: { name: "host", host_path: { path: "/srv" } },
      });
    });
    expect(error).toBeUndefined();
  });
});

describe("no-host-namespaces", () => {
  it("fails synth on host networking, naming the attribute", () => {
    expectViolation(
      (s) =>
        deployment(s, {
          hostNetwork: true,
          container: [{ name: "dev", image: "i", resources: LIMITS }],
        }),
      "no-host-namespaces",
      "t/main",
      /spec\.template\.spec\.host_network: host_network is only allowed behind the opt-in variable "allow_host_network"/,
    );
  });

  it("fails synth on host networking set through an override", () => {
    expectViolation(
      (s) => {
        const pod = new PodV1(s, "pod", {
          metadata: { name: "p" },
          spec: { container: [{ name: "dev", image: "i", resources: LIMITS }] },
        });
        pod.addOverride("spec.host_pid", true);
      },
      "no-host-namespaces",
      "t/pod",
      /spec\.host_pid: host_pid is only allowed behind the opt-in variable "allow_host_pid"/,
    );
  });

  it("accepts host networking gated by allow_host_network", () => {
    const error = synthError((s) => {
      const allow = gate(s, "allow_host_network");
      deployment(s, {
        hostNetwork: Token.asAny(Op.and(allow.booleanValue, true)) as unknown as boolean,
        container: [{ name: "dev", image: "i", resources: LIMITS }],
      });
    });
    expect(error).toBeUndefined();
  });
});

describe("container-resource-limits", () => {
  it("fails synth on a container without resources", () => {
    expectViolation(
      (s) => deployment(s, { container: [{ name: "dev", image: "i" }] }),
      "container-resource-limits",
      "t/main",
      /spec\.template\.spec\.container\[0\] \(container "dev"\): has no resources block/,
    );
  });

  it("fails synth on an init container with requests but no limits", () => {
    expectViolation(
      (s) =>
        deployment(s, {
          container: [{ name: "dev", image: "i", resources: LIMITS }],
          initContainer: [{ name: "seed", image: "i", resources: { requests: { cpu: "1" } } }],
        }),
      "container-resource-limits",
      "t/main",
      /init_container\[0\] \(init_container "seed"\): has no resource limits/,
    );
  });

  it("fails synth on limits without memory", () => {
    expectViolation(
      (s) =>
        deployment(s, {
          container: [{ name: "dev", image: "i", resources: { limits: { cpu: "1" } } }],
        }),
      "container-resource-limits",
      "t/main",
      /\(container "dev"\): has no memory limit/,
    );
  });

  it.each([
    ["an object written as an expression", () => hcl`{}`],
    ["a lookup", () => hcl`lookup(var.sizes, "large", {})`],
  ])("fails synth on limits given as %s it cannot prove", (_what, limits) => {
    expectViolation(
      (s) => {
        new TerraformVariable(s, "sizes", { type: "map(map(string))", default: {} });
        deployment(s, {
          container: [
            { name: "dev", image: "i", resources: { limits: Token.asStringMap(limits()) } },
          ],
        });
      },
      "container-resource-limits",
      "t/main",
      /\(container "dev"\): its limits are an expression the policy cannot prove to hold cpu and memory/,
    );
  });

  it("fails synth on a local that is itself an expression", () => {
    expectViolation(
      (s) => {
        const limits = new TerraformLocal(s, "limits", hcl`merge({}, {})`);
        deployment(s, {
          container: [{ name: "dev", image: "i", resources: { limits: limits.asStringMap } }],
        });
      },
      "container-resource-limits",
      "t/main",
      /cannot prove to hold cpu and memory/,
    );
  });

  it("takes a construct's declaration of what an expression holds, and checks it", () => {
    const declared = (keys: string[]) => (s: TemplateStack) => {
      const limits = new TerraformLocal(s, "limits", hcl`merge({ cpu = "1" }, { memory = "1Gi" })`);
      deployment(s, {
        container: [
          {
            name: "dev",
            image: "i",
            resources: { limits: Token.asStringMap(declareLimits(s, limits.asStringMap, keys)) },
          },
        ],
      });
    };
    expect(synthError(declared(["cpu", "memory"]))).toBeUndefined();
    expectViolation(
      declared(["cpu"]),
      "container-resource-limits",
      "t/main",
      /has no memory limit/,
    );
  });

  it("accepts limits from a local that is a literal map", () => {
    const error = synthError((s) => {
      const limits = new TerraformLocal(s, "limits", { cpu: "1", memory: "1Gi" });
      deployment(s, {
        container: [{ name: "dev", image: "i", resources: { limits: limits.asStringMap } }],
      });
    });
    expect(error).toBeUndefined();
  });
});

describe("lifetime-resources-survive-stop", () => {
  it.each([
    [
      "service account",
      (s: TemplateStack, count: number) =>
        new ServiceAccountV1(s, "identity", { count, metadata: { name: "sa" } }),
    ],
    [
      "secret",
      (s: TemplateStack, count: number) =>
        new SecretV1(s, "identity", { count, metadata: { name: "kubeconfig" } }),
    ],
    [
      "role binding",
      (s: TemplateStack, count: number) =>
        new RoleBindingV1(s, "identity", {
          count,
          metadata: { name: "rb" },
          roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "r" },
          subject: [],
        }),
    ],
  ])("fails synth on a %s counted by start_count", (_kind, make) => {
    expectViolation(
      (s) => make(s, new WorkspaceData(s, "workspace").startCount),
      "lifetime-resources-survive-stop",
      "t/identity",
      /its count follows data\.coder_workspace\.me\.start_count, so a workspace stop would destroy it/,
    );
  });

  it("follows the count through locals", () => {
    expectViolation(
      (s) => {
        const ws = new WorkspaceData(s, "workspace");
        const running = new TerraformLocal(s, "running", Op.eq(ws.startCount, 1));
        const count = new TerraformLocal(s, "pvc_count", Fn.conditional(running.asBoolean, 1, 0));
        new PersistentVolumeClaimV1(s, "home", {
          count: count.asNumber,
          metadata: { name: "h" },
          spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
          lifecycle: { ignoreChanges: ["spec[0].resources[0].requests"] },
        });
      },
      "lifetime-resources-survive-stop",
      "t/home",
      /start_count \(through local\.running\) \(through local\.pvc_count\)/,
    );
  });

  it("accepts an empty Opaque Secret counted by start_count (a token's session), not one with data", () => {
    const session = (data?: Record<string, string>) =>
      synthError((s) => {
        const ws = new WorkspaceData(s, "workspace");
        new SecretV1(s, "session", {
          count: ws.startCount,
          metadata: { name: "ws-session" },
          type: "Opaque",
          data,
        });
      });
    expect(session()).toBeUndefined();
    expect(String(session({ token: "x" }))).toMatch(/so a workspace stop would destroy it/);
  });

  it("accepts a Secret counted by start_count that only copies an agent's token (issue 43.2), nothing more", () => {
    const copy = (data: Record<string, string>) =>
      synthError((s) => {
        const ws = new WorkspaceData(s, "workspace");
        const agent = new WorkspaceAgent(s, "agent");
        new SecretV1(s, "agent_token", {
          count: ws.startCount,
          metadata: { name: "ws-agent-token" },
          type: "Opaque",
          data: Object.fromEntries(
            Object.entries(data).map(([k, v]) => [k, v === "TOKEN" ? agent.token : v]),
          ),
        });
      });
    expect(copy({ token: "TOKEN" })).toBeUndefined();
    expect(String(copy({ token: "TOKEN", kubeconfig: "x" }))).toMatch(
      /so a workspace stop would destroy it/,
    );
    expect(String(copy({ token: "x" }))).toMatch(/so a workspace stop would destroy it/);
  });

  it("accepts a deployment counted by start_count (the pod must die with a stop)", () => {
    const error = synthError((s) => {
      const ws = new WorkspaceData(s, "workspace");
      new DeploymentV1(s, "main", {
        count: ws.startCount,
        metadata: { name: "w" },
        spec: {
          selector: {},
          template: {
            metadata: {},
            spec: { container: [{ name: "dev", image: "i", resources: LIMITS }] },
          },
        },
      });
    });
    expect(error).toBeUndefined();
  });
});

describe("data-volume-size-fixed", () => {
  it("fails synth on a PVC whose size changes are not ignored", () => {
    expectViolation(
      (s) =>
        new PersistentVolumeClaimV1(s, "data", {
          metadata: { name: "d" },
          spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
        }),
      "data-volume-size-fixed",
      "t/data",
      /kubernetes_persistent_volume_claim_v1\.data: lifecycle\.ignore_changes must cover spec\[0\]\.resources\[0\]\.requests/,
    );
  });

  it("fails synth when ignore_changes covers something else", () => {
    expectViolation(
      (s) =>
        new PersistentVolumeClaimV1(s, "data", {
          metadata: { name: "d" },
          spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
          lifecycle: { ignoreChanges: ["metadata[0].labels"] },
        }),
      "data-volume-size-fixed",
      "t/data",
      /must cover spec\[0\]\.resources\[0\]\.requests/,
    );
  });

  it.each([["spec[0].resources[0].requests.storage"], ["spec"], ["spec[0].resources[0].requests"]])(
    "accepts ignore_changes = [%j]",
    (entry) => {
      const error = synthError(
        (s) =>
          new PersistentVolumeClaimV1(s, "data", {
            metadata: { name: "d" },
            spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
            lifecycle: { ignoreChanges: [entry] },
          }),
      );
      expect(error).toBeUndefined();
    },
  );

  it("accepts the project's DataVolume construct", () => {
    const error = synthError((s) => {
      const ws = new WorkspaceData(s, "workspace");
      new DataVolume(s, "home", {
        name: "h",
        namespace: "n",
        size: "1Gi",
        meta: { labels: {}, annotations: {} },
      });
      void ws;
    });
    expect(error).toBeUndefined();
  });
});

describe.each(TEMPLATES.map((t) => t.id))("template %s", (id) => {
  it("breaks no policy", () => {
    const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), "policy-real-")) });
    try {
      const stack = TEMPLATES.find((t) => t.id === id)!.create(app);
      expect(findPolicyViolations(stack)).toEqual([]);
    } finally {
      fs.rmSync(app.outdir, { recursive: true, force: true });
    }
  });
});
