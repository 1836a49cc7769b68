/**
 * WorkspaceDeployment and agentContainer: the workspace pod as a one-replica Deployment that
 * exists only while the workspace runs, and the container that starts the agent with its token
 * in an env var.
 */
import { KubernetesProvider } from "@cdktf/provider-kubernetes/lib/provider";
import { coderProvider } from "../../lib/constructs/providers";
import type { TemplateStack } from "../../lib/constructs/template-stack";
import { WorkspaceAgent } from "../../lib/constructs/workspace-agent";
import { WorkspaceData } from "../../lib/constructs/workspace-data";
import { workspaceObjectMeta } from "../../lib/constructs/workspace-labels";
import { DataVolume } from "../../lib/constructs/data-volume";
import { hcl } from "../../lib/core/expr";
import { AgentTokenSecret } from "../../lib/constructs/agent-token-secret";
import {
  agentContainer,
  RESTRICTED_CONTAINER_SECURITY,
  WORKSPACE_POD_ANTI_AFFINITY,
  WorkspaceDeployment,
  type WorkspaceDeploymentProps,
} from "../../lib/constructs/workspace-deployment";
import { DEFAULT_WORKSPACE, TerraformHarness } from "@coder-cdktf/terraform-harness";
import { synthConstruct, synthConstructToDir, type TerraformJson } from "./construct-stack";

const LIMITS = { limits: { cpu: "1", memory: "1Gi" } };

/** Pod Security restricted, every field explicit (the provider sends unset ones as false). */
const RESTRICTED_AS_SYNTHESIZED = {
  run_as_non_root: true,
  allow_privilege_escalation: false,
  privileged: false,
  read_only_root_filesystem: false,
  capabilities: { drop: ["ALL"] },
  seccomp_profile: { type: "RuntimeDefault" },
};

/** A workspace pod with one agent container and a data volume it depends on. */
function buildPod(stack: TemplateStack, overrides: Partial<WorkspaceDeploymentProps> = {}): void {
  coderProvider(stack);
  new KubernetesProvider(stack, "kubernetes", {});
  const ws = new WorkspaceData(stack, "workspace");
  const agent = new WorkspaceAgent(stack, "agent");
  const volume = new DataVolume(stack, "home", {
    name: `coder-${ws.id}-home`,
    namespace: "ns",
    size: "1Gi",
    meta: workspaceObjectMeta(ws, "pvc"),
  });
  new WorkspaceDeployment(stack, "deployment", {
    workspace: ws,
    name: `coder-${ws.id}`,
    namespace: "ns",
    meta: workspaceObjectMeta(ws, "workspace"),
    dependsOn: [volume.claim],
    pod: {
      securityContext: { runAsUser: "1000" },
      container: [
        agentContainer({
          name: "dev",
          image: "example/image:1",
          agent,
          tokenSecret: new AgentTokenSecret(stack, "agent_token_secret", {
            workspace: ws,
            agent,
            namespace: "ns",
            meta: workspaceObjectMeta(ws, "agent-token"),
          }),
          env: [{ name: "EXTRA", value: "1" }],
          resources: LIMITS,
        }),
      ],
      affinity: WORKSPACE_POD_ANTI_AFFINITY,
    },
    ...overrides,
  });
}

describe("synthesized", () => {
  let tf: TerraformJson;
  let deployment: any;
  beforeAll(() => {
    tf = synthConstruct((stack) => buildPod(stack));
    deployment = tf.resource.kubernetes_deployment_v1.main;
  });

  it("is kubernetes_deployment_v1.main, counted by the workspace's start_count", () => {
    expect(Object.keys(tf.resource.kubernetes_deployment_v1)).toEqual(["main"]);
    expect(deployment.count).toBe("${data.coder_workspace.me.start_count}");
  });

  it("runs one replica with Recreate and does not wait for the rollout", () => {
    expect(deployment.spec.replicas).toBe("1");
    // Two pods must never mount the same ReadWriteOnce volume at once.
    expect(deployment.spec.strategy).toEqual({ type: "Recreate" });
    expect(deployment.wait_for_rollout).toBe(false);
  });

  it("puts every label on the Deployment, only id-derived ones on its selector and the pod", () => {
    const labels = deployment.metadata.labels;
    expect(labels["app.kubernetes.io/name"]).toBe("coder-workspace");
    expect(labels["com.coder.user.username"]).toBe("${data.coder_workspace_owner.me.name}");
    const stable = {
      "app.kubernetes.io/name": "coder-workspace",
      "app.kubernetes.io/instance": "coder-workspace-${data.coder_workspace.me.id}",
      "app.kubernetes.io/part-of": "coder",
      "com.coder.resource": "true",
      "com.coder.workspace.id": "${data.coder_workspace.me.id}",
    };
    // A claim changes the owner and the name: the selector is ForceNew, and a new pod
    // template restarts the pod, so neither may follow them.
    expect(deployment.spec.selector.match_labels).toEqual(stable);
    expect(deployment.spec.template.metadata.labels).toEqual(stable);
    expect(deployment.metadata.annotations).toEqual({
      "com.coder.user.email": "${data.coder_workspace_owner.me.email}",
    });
    expect(deployment.spec.template.metadata).not.toHaveProperty("annotations");
  });

  it("depends on what it is given (the data volume)", () => {
    expect(deployment.depends_on).toEqual(["kubernetes_persistent_volume_claim_v1.home"]);
  });

  it("passes the pod spec through", () => {
    const spec = deployment.spec.template.spec;
    expect(spec.security_context).toEqual({ run_as_user: "1000" });
    expect(spec.container.map((c: any) => c.name)).toEqual(["dev"]);
    expect(spec.affinity.pod_anti_affinity).toBeDefined();
  });

  it("starts the agent with `sh -c <init script>`, the token only in CODER_AGENT_TOKEN, from its Secret", () => {
    const [container] = deployment.spec.template.spec.container;
    expect(container.command).toEqual(["sh", "-c", "${coder_agent.main.init_script}"]);
    // Issue 43.2: read from the workspace's Secret, never a literal value in the pod spec.
    expect(container.env).toEqual([
      {
        name: "CODER_AGENT_TOKEN",
        value_from: {
          secret_key_ref: {
            name: "${kubernetes_secret_v1.agent_token[0].metadata[0].name}",
            key: "token",
          },
        },
      },
      { name: "EXTRA", value: "1" },
    ]);
    expect(JSON.stringify(container.command)).not.toContain("token");
    expect(container.image_pull_policy).toBe("IfNotPresent");
    expect(container.security_context).toEqual(RESTRICTED_AS_SYNTHESIZED);
  });

  it("writes preconditions as the Deployment's lifecycle.precondition blocks", () => {
    const checked = synthConstruct((stack) =>
      buildPod(stack, {
        preconditions: [{ condition: hcl`var.a != var.b`, errorMessage: "a and b differ" }],
      }),
    );
    expect(checked.resource.kubernetes_deployment_v1.main.lifecycle).toEqual({
      precondition: [{ condition: "${var.a != var.b}", error_message: "a and b differ" }],
    });
    expect(deployment.lifecycle).toBeUndefined();
  });

  // Issue 32 item 5: repository code must not get the namespace's default ServiceAccount token.
  it("mounts no ServiceAccount token unless the automountServiceAccountToken prop opts in", () => {
    expect(deployment.spec.template.spec.automount_service_account_token).toBe(false);
    const optedIn = synthConstruct((stack) =>
      buildPod(stack, { automountServiceAccountToken: true }),
    );
    expect(
      optedIn.resource.kubernetes_deployment_v1.main.spec.template.spec
        .automount_service_account_token,
    ).toBe(true);
    expect(() =>
      synthConstruct((stack) =>
        buildPod(stack, {
          automountServiceAccountToken: true,
          pod: {
            securityContext: { runAsUser: "1000" },
            container: [],
            automountServiceAccountToken: false,
          },
        }),
      ),
    ).toThrow(/automountServiceAccountToken either as a prop or in pod/);
  });

  it("takes another address from resourceName", () => {
    const renamed = synthConstruct((stack) => buildPod(stack, { resourceName: "pod" }));
    expect(Object.keys(renamed.resource.kubernetes_deployment_v1)).toEqual(["pod"]);
  });
});

it("refuses a pod without runAsUser: workspaces never run as root by default", () => {
  expect(() => synthConstruct((stack) => buildPod(stack, { pod: { container: [] } }))).toThrow(
    /pod\.securityContext\.runAsUser must be set/,
  );
});

describe("agentContainer", () => {
  it("replaces the command, keeps the token in env and takes pull policy and security context", () => {
    const tf = synthConstruct((stack) => {
      coderProvider(stack);
      const ws = new WorkspaceData(stack, "workspace");
      const agent = new WorkspaceAgent(stack, "agent");
      new WorkspaceDeployment(stack, "deployment", {
        workspace: ws,
        name: "pod",
        namespace: "ns",
        meta: { labels: { app: "x" }, annotations: {} },
        pod: {
          securityContext: { runAsUser: "1000" },
          container: [
            agentContainer({
              name: "dev",
              image: "img",
              agent,
              tokenSecret: { secretName: "pod-agent-token", key: "token" },
              command: ["/bin/entry", "--agent"],
              imagePullPolicy: "Always",
              securityContext: { ...RESTRICTED_CONTAINER_SECURITY, runAsNonRoot: true },
              volumeMounts: [{ name: "home", mountPath: "/home/dev" }],
              resources: LIMITS,
            }),
          ],
        },
      });
    });
    const [c] = tf.resource.kubernetes_deployment_v1.main.spec.template.spec.container;
    expect(c.command).toEqual(["/bin/entry", "--agent"]);
    expect(c.env).toEqual([
      {
        name: "CODER_AGENT_TOKEN",
        value_from: { secret_key_ref: { name: "pod-agent-token", key: "token" } },
      },
    ]);
    expect(c.image_pull_policy).toBe("Always");
    expect(c.security_context).toEqual(RESTRICTED_AS_SYNTHESIZED);
    expect(c.volume_mount).toEqual([{ name: "home", mount_path: "/home/dev" }]);
  });
});

describe("WORKSPACE_POD_ANTI_AFFINITY", () => {
  it("only prefers other nodes than those of other workspaces: never a reason to stay Pending", () => {
    const anti = WORKSPACE_POD_ANTI_AFFINITY.podAntiAffinity!;
    expect(anti.requiredDuringSchedulingIgnoredDuringExecution).toBeUndefined();
    const [term] = anti.preferredDuringSchedulingIgnoredDuringExecution as any[];
    expect(term.podAffinityTerm.topologyKey).toBe("kubernetes.io/hostname");
    expect(term.podAffinityTerm.labelSelector[0].matchExpressions).toEqual([
      { key: "app.kubernetes.io/name", operator: "In", values: ["coder-workspace"] },
    ]);
  });
});

describe("planned", () => {
  let harness: TerraformHarness;
  let synthesized: ReturnType<typeof synthConstructToDir>;
  beforeAll(async () => {
    synthesized = synthConstructToDir((stack) => buildPod(stack));
    harness = await TerraformHarness.start();
  });
  afterAll(async () => {
    await harness?.stop();
    synthesized?.cleanup();
  });

  it("fails the plan with a precondition's message when its condition is false", async () => {
    const checked = synthConstructToDir((stack) =>
      buildPod(stack, {
        preconditions: [
          {
            condition: hcl`data.coder_workspace.me.name != "dev"`,
            errorMessage: "workspaces may not be called dev",
          },
        ],
      }),
    );
    try {
      await expect(harness.plan(checked.dir, { workspace: { startCount: 1 } })).rejects.toThrow(
        /workspaces may not be called dev/,
      );
      const renamed = await harness.plan(checked.dir, {
        workspace: { startCount: 1, name: "other" },
      });
      expect(renamed.addresses()).toContain("kubernetes_deployment_v1.main[0]");
    } finally {
      checked.cleanup();
    }
  });

  it("exists only while started, named after the workspace, with the token in a Secret that goes with it", async () => {
    const [stopped, started] = await Promise.all([
      harness.plan(synthesized.dir, { workspace: { startCount: 0 } }),
      harness.plan(synthesized.dir, { workspace: { startCount: 1 } }),
    ]);
    expect(stopped.resources("kubernetes_deployment_v1")).toEqual([]);
    // Issue 43.2: a stopped workspace leaves no agent token in the namespace.
    expect(stopped.resources("kubernetes_secret_v1")).toEqual([]);
    expect(stopped.addresses()).toContain("kubernetes_persistent_volume_claim_v1.home");

    const deployment = started.resource("kubernetes_deployment_v1.main[0]");
    expect((deployment.after.metadata as any[])[0].name).toBe(`coder-${DEFAULT_WORKSPACE.id}`);
    const [env] = (deployment.after.spec as any[])[0].template[0].spec[0].container[0].env;
    expect(env.name).toBe("CODER_AGENT_TOKEN");
    expect(env.value ?? "").toBe("");
    expect(env.value_from[0].secret_key_ref[0]).toEqual({
      name: `coder-${DEFAULT_WORKSPACE.id}-agent-token`,
      key: "token",
      optional: null,
    });
    const secret = started.resource("kubernetes_secret_v1.agent_token[0]");
    expect(secret.afterSensitive.data).toBe(true);
  });
});
