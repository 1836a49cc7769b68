import { Construct, Token, type IResolvable, type ITerraformDependable } from "../core/cdk";
import {
  DeploymentV1,
  type DeploymentV1SpecTemplateSpec,
  type DeploymentV1SpecTemplateSpecAffinity,
  type DeploymentV1SpecTemplateSpecContainer,
  type DeploymentV1SpecTemplateSpecContainerSecurityContext,
} from "@cdktf/provider-kubernetes/lib/deployment-v1";
import { Expr, hcl } from "../core/expr";
import type { WorkspaceData } from "./workspace-data";
import { claimStableLabels, type WorkspaceObjectMeta } from "./workspace-labels";
import type { WorkspaceAgent } from "./workspace-agent";
import type { AgentTokenSecretRef } from "./agent-token-secret";

export interface WorkspaceDeploymentProps {
  /** The address: `kubernetes_deployment_v1.<resourceName>`. @default "main" */
  readonly resourceName?: string;
  readonly workspace: WorkspaceData;
  readonly name: string;
  readonly namespace: string;
  /**
   * Labels and annotations of the Deployment, updated in place. Its selector and the pod get
   * only the claim-stable labels (claimStableLabels): the selector is ForceNew, and a change to
   * the pod template restarts the pod, so neither may follow the owner or the workspace name,
   * which change when a prebuilt workspace is claimed.
   */
  readonly meta: WorkspaceObjectMeta;
  /**
   * The pod. Must set `securityContext` with `runAsUser`; containers should come
   * from {@link agentContainer} so the agent starts with its token.
   */
  readonly pod: DeploymentV1SpecTemplateSpec;
  /** Created first, e.g. the data volume the pod mounts. @default [] */
  readonly dependsOn?: readonly ITerraformDependable[];
  /**
   * Whether the pod gets a token of its ServiceAccount (`automountServiceAccountToken`).
   * Off unless asked for: everything in a workspace (a repository's code included) could read
   * it, and a pod with no account of its own would get the namespace's `default` one. Opt in
   * only for a pod that runs as a ServiceAccount made for it and needs the API server. A pod
   * that sets `pod.automountServiceAccountToken` itself keeps its value. @default false
   */
  readonly automountServiceAccountToken?: boolean;

  // ---- Scheduling and extended resources (typed props; see applyScheduling below) ----

  /**
   * Extended resources (GPUs, say) for the first container, added to its limits, which
   * Kubernetes also takes as the requests: `{ "nvidia.com/gpu": gpus }`. Values may be tokens
   * (a parameter); 0 requests none. @default none
   */
  readonly extendedResources?: Readonly<Record<string, string | number>>;
  /** Node labels the pod must run on; a token (a map known at apply time) is accepted. @default none */
  readonly nodeSelector?: Readonly<Record<string, string>> | IResolvable;
  /**
   * Taints the pod tolerates. A list is written as blocks; a token (a list of objects with
   * `key`, `operator`, `value`, `effect`, `toleration_seconds`, any of them absent, known at
   * apply time) becomes a dynamic block. @default none
   */
  readonly tolerations?: readonly WorkspaceToleration[] | IResolvable;
  /** Node and pod (anti-)affinity. @default none */
  readonly affinity?: DeploymentV1SpecTemplateSpecAffinity;
  /**
   * Checks the plan makes before it creates or changes the Deployment (Terraform's
   * `lifecycle.precondition`): a false `condition` fails the plan, and `coder templates push`,
   * with `errorMessage`. For rules that read several variables, which a variable's own
   * validation may do only from Terraform 1.9. @default none
   */
  readonly preconditions?: readonly WorkspacePrecondition[];
}

/** One plan-time check of {@link WorkspaceDeploymentProps.preconditions}. */
export interface WorkspacePrecondition {
  /** A Terraform expression that must be true, e.g. built with `hcl`. */
  readonly condition: Expr<boolean>;
  /** What the plan says when it is false. */
  readonly errorMessage: string;
}

/** One toleration; any field may be a token. */
export interface WorkspaceToleration {
  /** @default any key (with operator Exists) */
  readonly key?: string;
  /** "Equal" or "Exists". @default "Equal" */
  readonly operator?: string;
  readonly value?: string;
  /** "NoSchedule", "PreferNoSchedule" or "NoExecute". @default all effects */
  readonly effect?: string;
  /** For NoExecute: seconds the pod stays after the taint appears. @default forever */
  readonly tolerationSeconds?: string;
}

/**
 * The workspace pod, as a one-replica Deployment (`kubernetes_deployment_v1.main` by default)
 * whose count follows the workspace's start_count: it exists only while the
 * workspace runs; everything stateful lives elsewhere (the data volume).
 * `Recreate` because two pods must never mount the same ReadWriteOnce volume,
 * and no wait for the rollout so a slow image pull does not fail the build
 * (the agent reports readiness instead). No ServiceAccount token is mounted unless
 * {@link WorkspaceDeploymentProps.automountServiceAccountToken} asks for one.
 */
export class WorkspaceDeployment extends Construct {
  public readonly deployment: DeploymentV1;

  constructor(scope: Construct, id: string, props: WorkspaceDeploymentProps) {
    super(scope, id);
    if (props.pod.securityContext?.runAsUser === undefined) {
      throw new Error(
        `${this.node.path}: pod.securityContext.runAsUser must be set (workspaces do not run as root)`,
      );
    }
    const stableLabels = claimStableLabels(props.meta);
    if (
      props.automountServiceAccountToken !== undefined &&
      props.pod.automountServiceAccountToken !== undefined
    ) {
      throw new Error(
        `${this.node.path}: set automountServiceAccountToken either as a prop or in pod.automountServiceAccountToken, not both`,
      );
    }
    const pod: DeploymentV1SpecTemplateSpec = {
      ...applyScheduling(this.node.path, props),
      automountServiceAccountToken:
        props.pod.automountServiceAccountToken ?? props.automountServiceAccountToken ?? false,
    };
    this.deployment = new DeploymentV1(this, props.resourceName ?? "main", {
      count: props.workspace.startCount,
      dependsOn: props.dependsOn ? [...props.dependsOn] : undefined,
      waitForRollout: false,
      lifecycle:
        props.preconditions === undefined
          ? undefined
          : {
              precondition: props.preconditions.map((p) => ({
                condition: p.condition,
                errorMessage: p.errorMessage,
              })),
            },
      metadata: {
        name: props.name,
        namespace: props.namespace,
        labels: props.meta.labels,
        annotations: props.meta.annotations,
      },
      spec: {
        replicas: "1",
        selector: { matchLabels: stableLabels },
        strategy: { type: "Recreate" },
        template: {
          metadata: { labels: stableLabels },
          spec: pod,
        },
      },
    });
    if (props.tolerations !== undefined && !Array.isArray(props.tolerations)) {
      // cdktf has no dynamic blocks inside a block list, so this one is an override.
      this.deployment.addOverride("spec.template.spec.dynamic.toleration", {
        for_each: props.tolerations,
        iterator: "toleration",
        content: Object.fromEntries(
          TOLERATION_FIELDS.map(([, key]) => [
            key,
            hcl`lookup(${Expr.ref("toleration.value")}, ${key}, null)`,
          ]),
        ),
      });
    }
  }
}

/** Toleration fields: the prop's name and the provider's. */
const TOLERATION_FIELDS = [
  ["key", "key"],
  ["operator", "operator"],
  ["value", "value"],
  ["effect", "effect"],
  ["tolerationSeconds", "toleration_seconds"],
] as const;

/**
 * The pod with the typed scheduling props merged in. A prop the pod already sets is refused
 * rather than silently combined.
 */
function applyScheduling(
  path: string,
  props: WorkspaceDeploymentProps,
): DeploymentV1SpecTemplateSpec {
  const pod = props.pod;
  const twice = (name: string, podField: keyof DeploymentV1SpecTemplateSpec) => {
    if (pod[podField] !== undefined) {
      throw new Error(`${path}: set ${name} either as a prop or in pod.${podField}, not both`);
    }
  };
  let result: DeploymentV1SpecTemplateSpec = pod;
  if (props.nodeSelector !== undefined) {
    twice("nodeSelector", "nodeSelector");
    const selector = Token.isUnresolved(props.nodeSelector)
      ? Token.asStringMap(props.nodeSelector)
      : { ...(props.nodeSelector as Record<string, string>) };
    result = { ...result, nodeSelector: selector };
  }
  if (props.tolerations !== undefined) {
    twice("tolerations", "toleration");
    if (Array.isArray(props.tolerations)) {
      result = { ...result, toleration: props.tolerations.map((t) => ({ ...t })) };
    }
  }
  if (props.affinity !== undefined) {
    twice("affinity", "affinity");
    result = { ...result, affinity: props.affinity };
  }
  const extended = props.extendedResources;
  if (extended !== undefined && Object.keys(extended).length > 0) {
    const containers = Array.isArray(pod.container) ? pod.container : [];
    if (containers.length === 0) throw new Error(`${path}: extendedResources need a container`);
    const [first, ...rest] = containers as DeploymentV1SpecTemplateSpecContainer[];
    const limits = { ...(first.resources?.limits ?? {}) } as Record<string, string>;
    for (const [name, amount] of Object.entries(extended)) {
      if (name in limits) throw new Error(`${path}: ${name} is already a limit of the container`);
      limits[name] =
        typeof amount === "number" && !Token.isUnresolved(amount)
          ? String(amount)
          : Token.asString(amount);
    }
    result = {
      ...result,
      container: [{ ...first, resources: { ...first.resources, limits } }, ...rest],
    };
  }
  return result;
}

/**
 * A container's security context that meets the Pod Security "restricted" level: non-root, no
 * privilege escalation, every capability dropped, the runtime's default seccomp profile.
 * Every field is explicit because the kubernetes provider sends the unset ones as false
 * (`runAsNonRoot: false` would override the pod's true) and
 * `allowPrivilegeEscalation` as true.
 */
export const RESTRICTED_CONTAINER_SECURITY: DeploymentV1SpecTemplateSpecContainerSecurityContext = {
  runAsNonRoot: true,
  allowPrivilegeEscalation: false,
  privileged: false,
  readOnlyRootFilesystem: false,
  capabilities: { drop: ["ALL"] },
  seccompProfile: { type: "RuntimeDefault" },
};

export interface AgentContainerProps {
  readonly name: string;
  readonly image: string;
  readonly agent: WorkspaceAgent;
  /**
   * The Secret holding the agent's token (an {@link AgentTokenSecret} of the workspace, in the
   * pod's namespace): CODER_AGENT_TOKEN is read from it, never written into the pod spec.
   */
  readonly tokenSecret: AgentTokenSecretRef;
  /** @default "IfNotPresent" */
  readonly imagePullPolicy?: string;
  /** Replaces the default `sh -c <agent init script>`; it must exec the init script. @default agent init */
  readonly command?: readonly string[];
  /** Extra env after CODER_AGENT_TOKEN. @default [] */
  readonly env?: DeploymentV1SpecTemplateSpecContainer["env"];
  readonly resources?: DeploymentV1SpecTemplateSpecContainer["resources"];
  readonly volumeMounts?: DeploymentV1SpecTemplateSpecContainer["volumeMount"];
  /** @default {@link RESTRICTED_CONTAINER_SECURITY} */
  readonly securityContext?: DeploymentV1SpecTemplateSpecContainerSecurityContext;
}

/**
 * The container that runs the Coder agent. The token reaches it only as the
 * CODER_AGENT_TOKEN env var (never in argv, where `ps` would show it), read from the
 * workspace's token Secret (`valueFrom.secretKeyRef`): a literal value would be in the pod
 * template, which everyone who may view the namespace's Deployments and pods reads.
 */
export function agentContainer(props: AgentContainerProps): DeploymentV1SpecTemplateSpecContainer {
  const env = Array.isArray(props.env) ? props.env : [];
  return {
    name: props.name,
    image: props.image,
    imagePullPolicy: props.imagePullPolicy ?? "IfNotPresent",
    command: props.command ? [...props.command] : ["sh", "-c", props.agent.initScript],
    securityContext: props.securityContext ?? RESTRICTED_CONTAINER_SECURITY,
    env: [
      {
        name: "CODER_AGENT_TOKEN",
        valueFrom: {
          secretKeyRef: { name: props.tokenSecret.secretName, key: props.tokenSecret.key },
        },
      },
      ...env,
    ],
    resources: props.resources,
    volumeMount: props.volumeMounts,
  };
}

/**
 * Spreads workspaces across nodes (a preference, never a reason to stay Pending):
 * prefer nodes that run no other pod labelled app.kubernetes.io/name=coder-workspace.
 */
export const WORKSPACE_POD_ANTI_AFFINITY: DeploymentV1SpecTemplateSpecAffinity = {
  podAntiAffinity: {
    preferredDuringSchedulingIgnoredDuringExecution: [
      {
        weight: 1,
        podAffinityTerm: {
          topologyKey: "kubernetes.io/hostname",
          labelSelector: [
            {
              matchExpressions: [
                { key: "app.kubernetes.io/name", operator: "In", values: ["coder-workspace"] },
              ],
            },
          ],
        },
      },
    ],
  },
};
