import { Construct, Token, type IResolvable, type ITerraformDependable } from "../core/cdk";
import type {
  DeploymentV1SpecTemplateSpecAffinity,
  DeploymentV1SpecTemplateSpecContainer,
  DeploymentV1SpecTemplateSpecContainerResources,
  DeploymentV1SpecTemplateSpecInitContainer,
} from "@cdktf/provider-kubernetes/lib/deployment-v1";
import { embeddedScript } from "../core/embedded-script";
import { hcl } from "../core/expr";
import { agentContainer, WorkspaceDeployment } from "../constructs/workspace-deployment";
import type { WorkspaceAgent } from "../constructs/workspace-agent";
import type { AgentTokenSecretRef } from "../constructs/agent-token-secret";
import type { WorkspaceData } from "../constructs/workspace-data";
import type { WorkspaceObjectMeta } from "../constructs/workspace-labels";
import { type DevcontainerMounts, seedHomeInitContainer } from "./mounts";
import type { DevcontainerRuntime } from "./runtime";
import { SCRIPTS_DIR } from "./scripts";
import { VARIABLES_SECRET_KEY } from "./variables-secret";

export interface DevcontainerPodProps {
  readonly workspace: WorkspaceData;
  readonly agent: WorkspaceAgent;
  /** The workspace's Secret with the agent's token (AgentTokenSecret), read by CODER_AGENT_TOKEN. */
  readonly agentTokenSecret: AgentTokenSecretRef;
  readonly namespace: string;
  /** Labels and annotations (workspaceObjectMeta(ws, "workspace")). */
  readonly meta: WorkspaceObjectMeta;
  /** The built image (`devcontainerbuilder_build.workspace.image`). */
  readonly image: string;
  /** Created before the pod: the data volume's claim. */
  readonly dependsOn: readonly ITerraformDependable[];
  /** The remote user: name, ids and home. */
  readonly user: {
    readonly remoteUser: string;
    readonly uid: number;
    readonly gid: number;
    readonly homeDir: string;
  };
  /** The workspace folder (the container's DC_WORKSPACE_FOLDER). */
  readonly workspaceFolder: { readonly path: string };
  /**
   * The workspace's Secret holding the "Dev Container variables" text (key
   * {@link VARIABLES_SECRET_KEY}; DevcontainerVariablesSecret): the pod reads it through
   * `secretKeyRef`, so no value appears in the Deployment.
   */
  readonly variablesSecretName: string;
  /**
   * `NAME=value` lines for `${localEnv:NAME}` names the variables text does not set
   * ({@link DevcontainerLocalEnv.text}): the workspace user's own HOME, USER and the like, no
   * secret. @default ""
   */
  readonly localEnvDefaults?: string;
  /**
   * `userEnvProbe` (DevcontainerUserEnvProbe.mode): which shell of the remote user the
   * wrapper probes for the agent's environment. @default "loginInteractiveShell"
   */
  readonly userEnvProbe?: string;
  /**
   * The Features' entrypoints to start before the agent, `<id>\t<path>` lines
   * (DevcontainerFeatureEntrypoints.text). @default ""
   */
  readonly featureEntrypoints?: string;
  /** Map with `containerEnv` / `remoteEnv` rendered scripts (absent when empty). */
  readonly envScripts: IResolvable;
  readonly resources: DeploymentV1SpecTemplateSpecContainerResources;
  /** Node selector map; always pins the architecture. */
  readonly nodeSelector: IResolvable;
  /** Tolerations: a list of `{ key, operator, value, effect, toleration_seconds }`. */
  readonly tolerations: IResolvable;
  readonly affinity: DeploymentV1SpecTemplateSpecAffinity;
  readonly runtime: DevcontainerRuntime;
  /** Every volume and mount of the pod, and the folders seed-home creates. */
  readonly mounts: DevcontainerMounts;
  /** `var.image_pull_secret_name`: "" for none. */
  readonly imagePullSecretName: string;
}

/**
 * The workspace pod (`kubernetes_deployment_v1.main`, count = start_count) of the
 * devcontainer template:
 *
 * - everything runs as the image's remote user from the start (uid/gid recorded at build
 *   time), with fsGroup keeping the PVC writable; nothing starts as root;
 * - init container `seed-home` creates the PVC's folders and, on the first start only,
 *   copies the image's home into the persisted one;
 * - container `dev` runs the image with dev-entrypoint.sh, which sets up the Dev
 *   Container environment and execs the agent; the image's ENTRYPOINT and CMD never run;
 * - the PVC provides the home, /workspaces, the workspace folder (when outside
 *   /workspaces) and the repository's volumes; /dev/shm and tmpfs mounts are in memory
 *   (all of them decided by DevcontainerMounts).
 */
export class DevcontainerPod extends Construct {
  public readonly deployment: WorkspaceDeployment;

  constructor(scope: Construct, id: string, props: DevcontainerPodProps) {
    super(scope, id);
    const user = props.user;
    // Both explicit: the kubernetes provider sends an unset runAsNonRoot as false and an unset
    // allowPrivilegeEscalation as true. Root only when the image's remote user is root.
    const nonRoot = Token.asAny(hcl`${user.uid} != 0`) as IResolvable;
    const runtime = props.runtime;
    const seedHome = embeddedScript(this, `${SCRIPTS_DIR}/seed-home.sh`);
    const entrypoint = embeddedScript(this, `${SCRIPTS_DIR}/dev-entrypoint.sh`);

    this.deployment = new WorkspaceDeployment(this, "deployment", {
      workspace: props.workspace,
      name: `coder-${props.workspace.id}`,
      namespace: props.namespace,
      meta: props.meta,
      dependsOn: props.dependsOn,
      pod: {
        securityContext: {
          runAsUser: Token.asString(user.uid),
          runAsGroup: Token.asString(user.gid),
          fsGroup: Token.asString(user.gid),
          fsGroupChangePolicy: "OnRootMismatch",
          // Docker's default profile, as `devcontainer up` would run the container; the dev
          // container's Unconfined (behind allow_privileged) overrides it.
          seccompProfile: { type: "RuntimeDefault" },
        },
        shareProcessNamespace: runtime.shareProcessNamespace,
        hostname: runtime.hostname,
        nodeSelector: props.nodeSelector as unknown as Record<string, string>,
        initContainer: [this.seedHomeContainer(props, seedHome, nonRoot)],
        container: [this.devContainer(props, entrypoint, nonRoot)],
        affinity: props.affinity,
      },
    });
    this.addDynamicBlocks(props);
  }

  /** seed-home: creates the folders and copies the files the mounts need, as the remote user. */
  private seedHomeContainer(
    props: DevcontainerPodProps,
    seedHome: string,
    nonRoot: IResolvable,
  ): DeploymentV1SpecTemplateSpecInitContainer {
    const user = props.user;
    const runtime = props.runtime;
    return {
      ...seedHomeInitContainer({
        image: props.image,
        script: seedHome,
        homeDir: user.homeDir,
        mounts: props.mounts,
      }),
      // It only creates folders and copies files as the remote user.
      securityContext: {
        allowPrivilegeEscalation: false,
        runAsNonRoot: nonRoot,
        capabilities: { drop: runtime.dropUnderRestricted },
      },
    };
  }

  /** The `dev` container: the image as the remote user, with the agent and the env scripts. */
  private devContainer(
    props: DevcontainerPodProps,
    entrypoint: string,
    nonRoot: IResolvable,
  ): DeploymentV1SpecTemplateSpecContainer {
    const user = props.user;
    const runtime = props.runtime;
    const envScript = (kind: string) =>
      Token.asString(hcl`base64encode(lookup(${props.envScripts}, ${kind}, ""))`);
    return agentContainer({
      name: "dev",
      image: props.image,
      agent: props.agent,
      tokenSecret: props.agentTokenSecret,
      command: ["sh", "-c", entrypoint],
      securityContext: { ...runtime.containerSecurityContext, runAsNonRoot: nonRoot },
      env: [
        { name: "DC_INIT_SCRIPT", value: props.agent.initScript },
        { name: "DC_REMOTE_USER", value: user.remoteUser },
        { name: "DC_HOME", value: user.homeDir },
        { name: "DC_WORKSPACE_FOLDER", value: props.workspaceFolder.path },
        { name: "DC_ID", value: props.workspace.id },
        {
          name: "DC_VARIABLES",
          valueFrom: {
            secretKeyRef: { name: props.variablesSecretName, key: VARIABLES_SECRET_KEY },
          },
        },
        { name: "DC_LOCALENV_DEFAULTS", value: props.localEnvDefaults ?? "" },
        { name: "DC_CONTAINER_ENV", value: envScript("containerEnv") },
        { name: "DC_REMOTE_ENV", value: envScript("remoteEnv") },
        { name: "DC_USER_ENV_PROBE", value: props.userEnvProbe ?? "loginInteractiveShell" },
        { name: "DC_FEATURE_ENTRYPOINTS", value: props.featureEntrypoints ?? "" },
      ],
      resources: props.resources,
    });
  }

  /**
   * Blocks whose number depends on the repository: dynamic blocks, written as overrides
   * because cdktf has no dynamic blocks inside lists of blocks (containers).
   */
  private addDynamicBlocks(props: DevcontainerPodProps): void {
    const deployment = this.deployment.deployment;
    const pod = "spec.template.spec";
    deployment.addOverride(`${pod}.dynamic.toleration`, {
      for_each: props.tolerations,
      iterator: "toleration",
      content: {
        key: "${toleration.value.key}",
        operator: "${toleration.value.operator}",
        value: "${toleration.value.value}",
        effect: "${toleration.value.effect}",
        toleration_seconds: "${toleration.value.toleration_seconds}",
      },
    });
    deployment.addOverride(`${pod}.dynamic.image_pull_secrets`, {
      for_each: hcl`${props.imagePullSecretName} != "" ? [${props.imagePullSecretName}] : []`,
      iterator: "secret",
      content: { name: "${secret.value}" },
    });
    props.mounts.applyTo(deployment, 0);
    props.runtime.applyTo(deployment, 0);
  }
}
