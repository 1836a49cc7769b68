/**
 * The devcontainer workspace: a repository's Dev Container configuration, built into an image
 * by the devcontainer-builder service, mapped onto one Kubernetes pod that runs the Coder agent
 * as the image's remote user, with the home, /workspaces and the repository's volumes on one
 * PVC. This is the pattern a template composes; the steps it is made of (sizing, placement,
 * mounts, the user, the runtime, the scripts, the warnings, …) are its own and not exported:
 * each decides one thing at apply time as named locals, and each is planned alone by the tests
 * under test/devcontainer/.
 */
import { Construct } from "../core/cdk";
import { Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import { AgentTokenSecret } from "../constructs/agent-token-secret";
import { DataVolume } from "../constructs/data-volume";
import { resourceMetadata } from "../constructs/resource-metadata";
import type { ResourcesMonitoringVariables } from "../constructs/resources-monitoring";
import { UserConfigModules } from "../constructs/user-config-modules";
import type { WorkspaceAgent } from "../constructs/workspace-agent";
import type { WorkspaceData } from "../constructs/workspace-data";
import type { WorkspaceDeployment } from "../constructs/workspace-deployment";
import { workspaceObjectMeta } from "../constructs/workspace-labels";
import { declareLimits } from "../policy/policy-rule";
import { DevcontainerAgent } from "./agent";
import { DevcontainerAgentEnv } from "./agent-env";
import { DevcontainerApps, portSlotWarnings } from "./apps";
import { DevcontainerDockerWarnings } from "./docker-warnings";
import { DevcontainerFeatureEntrypoints } from "./feature-entrypoints";
import { DevcontainerFeatureReport } from "./feature-report";
import { DevcontainerGitCredentials } from "./git-credentials";
import { DevcontainerIgnoredCustomizations } from "./ignored-customizations";
import { DevcontainerKubernetesCustomizations } from "./kubernetes-customizations";
import { DevcontainerLocalEnv } from "./local-env";
import { DevcontainerLocalWorkspaceFolder } from "./local-workspace-folder";
import { DevcontainerMounts } from "./mounts";
import type { DevcontainerParameters } from "./parameters";
import { DevcontainerPlacement } from "./placement";
import { DevcontainerPod } from "./pod";
import type { DevcontainerQuantityCaps } from "./quantity-caps";
import { DevcontainerRuntime } from "./runtime";
import {
  BACKGROUND_STATE_METADATA_SCRIPT,
  DevcontainerScripts,
  POST_ATTACH_STATE_METADATA_SCRIPT,
} from "./scripts";
import { DevcontainerSizing } from "./sizing";
import { DevcontainerSource } from "./source";
import type { DevcontainerTemplateVariables } from "./template-variables";
import { DevcontainerUserEnvProbe } from "./user-env-probe";
import { DevcontainerUserSecrets } from "./user-secrets";
import { DevcontainerVariablesSecret } from "./variables-secret";
import { DevcontainerWaitFor } from "./wait-for";
import { DevcontainerWarnings } from "./warnings";
import { DevcontainerWorkspaceFolder } from "./workspace-folder";
import { DevcontainerWorkspaceUser } from "./workspace-user";

/** What a devcontainer workspace is made from: the operator's settings and the user's choices. */
export interface DevcontainerWorkspaceProps {
  /** The workspace and its owner (`data.coder_workspace.me`, `data.coder_workspace_owner.me`). */
  readonly workspace: WorkspaceData;
  /**
   * The operator's settings: namespace, builder endpoint, git credentials, caps on what a
   * repository may ask for, the pod's security, lifecycle timeout and the apps.
   */
  readonly variables: DevcontainerTemplateVariables;
  /** The operator's maxima for disk, ephemeral storage and extended resources. */
  readonly caps: DevcontainerQuantityCaps;
  /** The user's choices: repository, branch, size, Dev Container variables, rebuild. */
  readonly parameters: DevcontainerParameters;
  /** The operator's resources-monitoring thresholds for the agent. */
  readonly monitoring: ResourcesMonitoringVariables;
}

/**
 * A workspace built from the repository's devcontainer.json: the image build, the pod (its
 * user, size, placement, runtime and mounts on one PVC), the agent with its scripts, apps and
 * metadata, and the build log's warnings for every value of the repository that was refused or
 * capped. Nothing of the repository reaches a resource without a rule (docs/security.md).
 */
export class DevcontainerWorkspace extends Construct {
  /** The workspace's agent, for a template's own apps and scripts. */
  public readonly agent: WorkspaceAgent;
  /** The workspace's pod: a Deployment of one replica, scaled to zero when stopped. */
  public readonly deployment: WorkspaceDeployment;
  /** The user's choices and the workspace id, each read once from its parameter or attribute. */
  private readonly chosen: Chosen;

  constructor(scope: Construct, id: string, props: DevcontainerWorkspaceProps) {
    super(scope, id);
    this.chosen = chosen(props);
    const source = this.repositorySource(props);
    const mapping = this.podMapping(props, source);
    const warnings = this.buildLogWarnings(props, source, mapping);
    const agent = this.devcontainerAgent(props, source, mapping, warnings);
    const volumes = this.workspaceVolumes(props, mapping);
    this.scriptsAndApps(props, source, mapping, agent);
    const pod = this.workspacePod(props, source, mapping, agent, volumes);
    this.resourcesMetadata(props, source, mapping, pod, volumes.data);
    this.agent = agent.agent;
    this.deployment = pod.deployment;
  }

  /** The repository's configuration and image, read and built with the user's git credentials. */
  private repositorySource({
    variables: vars,
    workspace: ws,
  }: DevcontainerWorkspaceProps): DevcontainerSource {
    const git = new DevcontainerGitCredentials(this, "git", {
      externalAuthId: vars.externalAuthId,
      username: vars.gitCredentialsUsername,
      token: vars.gitCredentialsToken,
      hosts: vars.gitCredentialsHosts,
      externalAuthHost: vars.externalAuthHost,
      allowTemplateFallback: vars.allowTemplateGitTokenFallback,
      repository: this.chosen.repository,
      isPrebuild: Expr.of<boolean>(ws.workspace.isPrebuild),
    });
    return new DevcontainerSource(this, "source", {
      workspace: ws,
      repository: this.chosen.repository,
      branch: this.chosen.branch,
      rebuild: this.chosen.rebuild,
      gitCredentials: git.buildCredentials,
      gitCredentialName: git.credentialName,
    });
  }

  /** What the configuration maps to on the pod: its user, size, place, folder, runtime, mounts. */
  private podMapping(inputs: DevcontainerWorkspaceProps, source: DevcontainerSource): PodMapping {
    const { variables: vars, workspace: ws } = inputs;
    const { user, sizing, placement } = this.userSizeAndPlacement(inputs, source);
    const folder = this.workspaceFolder(source, user);
    const runtime = new DevcontainerRuntime(this, "runtime", {
      runtime: source.runtime,
      allowPrivileged: vars.allowPrivileged.booleanExpr,
      podSecurityLevel: vars.podSecurityLevel.stringExpr,
      uid: user.uid,
    });
    const waitFor = new DevcontainerWaitFor(this, "wait_for", {
      configuration: source.configuration,
    });
    const localFolder = new DevcontainerLocalWorkspaceFolder(this, "local_folder", {
      variables: source.variables,
      workspaceFolder: folder.path,
      repositoryFolder: folder.repositoryFolder,
    });
    const ignored = new DevcontainerIgnoredCustomizations(this, "ignored_customizations", {
      configuration: source.configuration,
    });
    const { entrypoints, featureReport, userEnvProbe, docker } = this.imageFeatures(source);
    const mounts = new DevcontainerMounts(this, "mounts", {
      mounts: source.mounts,
      workspaceFolder: folder.path,
      repositoryFolder: folder.repositoryFolder,
      workspaceFolderMounted: folder.mounted,
      homeDir: user.homeDir,
      workspaceId: this.chosen.workspaceId,
      shmSizeLimit: runtime.shmSizeLimit,
      claimName: dataClaimName(ws),
    });
    // Kept apart so that other sources of ${localEnv:…} values can be merged into it.
    const localEnv = new DevcontainerLocalEnv(this, "local_env", {
      homeDir: user.homeDir,
      remoteUser: user.remoteUser,
    });
    // The user's own Coder secrets give ${localEnv:NAME} first, at run time (the agent hands
    // them to the lifecycle scripts); the template never reads their values.
    const userSecrets = new DevcontainerUserSecrets(this, "user_secrets", {
      expected: vars.userSecrets.stringListExpr,
      variables: source.variables,
    });
    return {
      user,
      sizing,
      placement,
      folder,
      runtime,
      waitFor,
      userEnvProbe,
      localFolder,
      ignored,
      entrypoints,
      featureReport,
      docker,
      mounts,
      localEnv,
      userSecrets,
    };
  }

  /** What the image's Features and the shell need: entrypoints, the installed list, the probe, Docker. */
  private imageFeatures(
    source: DevcontainerSource,
  ): Pick<PodMapping, "entrypoints" | "featureReport" | "userEnvProbe" | "docker"> {
    // The image's devcontainer.metadata label, decoded once for the three readers of its
    // Features (entrypoints, the installed list, the Docker warnings).
    const imageMetadata = new NamedLocals(this, "").add<unknown[]>(
      "image_metadata",
      hcl`try(jsondecode(try(${source.dc}.metadata_json, "[]")), [])`,
      "The image's label entries (one per Feature and the base image), or none when unreadable.",
    );
    const entrypoints = new DevcontainerFeatureEntrypoints(this, "feature_entrypoints", {
      metadata: imageMetadata,
    });
    const featureReport = new DevcontainerFeatureReport(this, "feature_report", {
      configuration: source.configuration,
      metadata: imageMetadata,
    });
    const userEnvProbe = new DevcontainerUserEnvProbe(this, "user_env_probe", {
      configuration: source.configuration,
    });
    const docker = new DevcontainerDockerWarnings(this, "docker", {
      configuration: source.configuration,
      lifecycleScripts: source.lifecycleScripts,
      metadata: imageMetadata,
    });
    return { entrypoints, featureReport, userEnvProbe, docker };
  }

  /** The container's user, its requests and limits, and the node it may run on. */
  private userSizeAndPlacement(
    { variables: vars, caps }: DevcontainerWorkspaceProps,
    source: DevcontainerSource,
  ): Pick<PodMapping, "user" | "sizing" | "placement"> {
    const dc = source.dc;
    const user = new DevcontainerWorkspaceUser(this, "user", {
      remoteUser: hcl`try(${dc}.remote_user, null)`,
      containerUser: hcl`try(${dc}.container_user, null)`,
      runtime: source.runtime,
      metadataRead: hcl`${dc} != null`,
    });
    const customizations = new DevcontainerKubernetesCustomizations(this, "customizations", {
      configuration: source.configuration,
    });
    const sizing = new DevcontainerSizing(this, "sizing", {
      customizations,
      hostRequirements: source.hostRequirements,
      cpu: this.chosen.cpu,
      memory: this.chosen.memory,
      diskSize: this.chosen.diskSize,
      maxCpu: vars.maxCpu.numberExpr,
      maxMemory: vars.maxMemory.numberExpr,
      // As for docker run, --memory caps the container: the limit, not a reservation.
      memoryIsLimit: source.runArgsSetMemory,
      maxDisk: caps.maxDisk.numberExpr,
      maxEphemeralStorage: caps.maxEphemeralStorage.numberExpr,
      maxExtendedResources: Expr.of<Record<string, number>>(caps.maxExtendedResources.value),
    });
    const placement = new DevcontainerPlacement(this, "placement", {
      customizations,
      allowNodePlacement: vars.allowNodePlacement.booleanExpr,
      arch: source.arch,
    });
    return { user, sizing, placement };
  }

  /** Where the repository and the workspace folder live in the container. */
  private workspaceFolder(
    source: DevcontainerSource,
    user: DevcontainerWorkspaceUser,
  ): DevcontainerWorkspaceFolder {
    return new DevcontainerWorkspaceFolder(this, "folder", {
      repository: this.chosen.repository,
      workspaceFolder: hcl`try(${source.dc}.workspace_folder, null)`,
      workspaceId: this.chosen.workspaceId,
      homeDir: user.homeDir,
      workspaceMount: hcl`try(${source.configuration}.workspaceMount, null)`,
    });
  }

  /** The build log's warnings: every value of the repository's that was refused or capped. */
  private buildLogWarnings(
    { variables: vars }: DevcontainerWorkspaceProps,
    source: DevcontainerSource,
    mapping: PodMapping,
  ): DevcontainerWarnings {
    const { user, sizing, placement, folder, runtime, waitFor, docker, mounts } = mapping;
    const slots = vars.maxForwardedPorts.numberExpr;
    return new DevcontainerWarnings(this, "warnings", {
      serviceWarnings: hcl`concat(${source.warnings}, ${source.configurationWarnings}, ${source.portWarnings}, ${portSlotWarnings(source.ports, slots)}, ${source.extensionWarnings}, ${source.variableWarnings}, ${source.runArgsWarnings}, ${source.envScriptWarnings}, ${folder.warnings}, ${waitFor.warnings}, ${mapping.userEnvProbe.warnings}, ${mapping.localFolder.warnings}, ${mapping.ignored.warnings}, ${mapping.entrypoints.warnings}, ${mapping.featureReport.warnings}, ${docker.warnings})`,
      resourceWarnings: sizing.warnings,
      placementWarnings: placement.warnings,
      mountWarnings: mounts.warnings,
      capabilityWarnings: runtime.warnings,
      uidWarnings: user.warnings,
      variables: source.variables,
      variablesText: this.chosen.variablesText,
      providedVariables: mapping.userSecrets.expectedNames,
      defaultedVariables: mapping.localEnv.names,
    });
  }

  /** The agent, the user's dotfiles and git identity, and the agent's environment. */
  private devcontainerAgent(
    { monitoring, workspace: ws }: DevcontainerWorkspaceProps,
    source: DevcontainerSource,
    { user, sizing, runtime }: PodMapping,
    warnings: DevcontainerWarnings,
  ): DevcontainerAgent {
    const agent = new DevcontainerAgent(this, "agent", {
      variablesMetadataScript: warnings.variablesMetadataScript,
      warningsMetadataScript: warnings.warningsMetadataScript,
      backgroundLifecycleScript: BACKGROUND_STATE_METADATA_SCRIPT,
      postAttachScript: POST_ATTACH_STATE_METADATA_SCRIPT,
      resourcesSummary: sizing.summary,
      podSecurityLevel: runtime.levelMet,
      // The home is on the data volume.
      resourcesMonitoring: monitoring.monitoring(user.homeDir.asString),
    });
    // The user's dotfiles and git identity; not in an unclaimed prebuild (it is not theirs yet).
    const userConfig = new UserConfigModules(this, "user_config", {
      agentId: agent.id,
      startCount: ws.claimedStartCount,
      parameterOrder: 20,
    });
    new DevcontainerAgentEnv(this, "env", {
      workspace: ws,
      agentId: agent.id,
      gitIdentityCount: userConfig.withoutGitConfig(ws.claimedCount),
      imageCommit: source.commit,
      branch: this.chosen.branch,
      rebuild: this.chosen.rebuild,
    });
    return agent;
  }

  /** The Secret with the Dev Container variables and the data volume. */
  private workspaceVolumes(
    { variables: vars, workspace: ws }: DevcontainerWorkspaceProps,
    { sizing }: PodMapping,
  ): WorkspaceVolumes {
    const variablesSecret = new DevcontainerVariablesSecret(this, "variables_secret", {
      name: `coder-${ws.id}-variables`,
      namespace: vars.namespace.stringValue,
      meta: workspaceObjectMeta(ws, "variables"),
      variablesText: this.chosen.variablesText,
    });

    const data = new DataVolume(this, "data", {
      name: dataClaimName(ws),
      namespace: vars.namespace.stringValue,
      size: sizing.diskSize.asString,
      meta: workspaceObjectMeta(ws, "pvc"),
    });
    return { variablesSecret, data };
  }

  /** The clone, the lifecycle hooks and the settings merge, and the IDEs and forwarded ports. */
  private scriptsAndApps(
    { variables: vars, workspace: ws }: DevcontainerWorkspaceProps,
    source: DevcontainerSource,
    { folder, waitFor, userSecrets, localFolder }: PodMapping,
    agent: DevcontainerAgent,
  ): void {
    new DevcontainerScripts(this, "scripts", {
      // The clone (with the user's git credentials), the hooks and the settings merge belong
      // to the user: not run in an unclaimed prebuild, run by the agent after the claim.
      startCount: ws.claimedStartCount,
      agentId: agent.id,
      workspaceFolder: folder.path,
      repositoryFolder: folder.repositoryFolder,
      initializeFolderVariable: localFolder.initializeFolderVariable,
      repository: this.chosen.repository,
      branch: this.chosen.branch,
      commit: source.commit,
      lifecycleScripts: source.lifecycleScripts,
      waitFor,
      localEnvSecretNames: userSecrets.secretNames,
      vscodeExtensions: source.vscodeExtensions,
      vscodeSettings: source.vscodeSettings,
      ownExtension: vars.vscodeExtension.stringExpr,
      lifecycleTimeoutSeconds: hcl<number>`${vars.lifecycleTimeoutMinutes.numberValue} * 60`,
    });
    new DevcontainerApps(this, "apps", {
      startCount: ws.startCount,
      agentId: agent.id,
      workspaceFolder: folder.path,
      acceptVscodeLicense: vars.acceptVscodeLicense.booleanExpr,
      subdomainApps: vars.subdomainApps.booleanExpr,
      maxForwardedPorts: vars.maxForwardedPorts.numberExpr,
      ports: source.ports,
    });
  }

  /** The workspace's pod: the built image as the mapped user, sized, placed and mounted. */
  private workspacePod(
    { variables: vars, workspace: ws }: DevcontainerWorkspaceProps,
    source: DevcontainerSource,
    mapping: PodMapping,
    agent: DevcontainerAgent,
    { variablesSecret, data }: WorkspaceVolumes,
  ): DevcontainerPod {
    const { user, sizing, placement, folder, runtime, mounts, localEnv } = mapping;
    // CODER_AGENT_TOKEN from a Secret of its own, not a literal in the pod template (issue 43.2).
    const agentToken = new AgentTokenSecret(this, "agent_token_secret", {
      workspace: ws,
      agent: agent.agent,
      namespace: vars.namespace.stringValue,
      meta: workspaceObjectMeta(ws, "agent-token"),
    });
    return new DevcontainerPod(this, "pod", {
      workspace: ws,
      agent: agent.agent,
      agentTokenSecret: agentToken,
      namespace: vars.namespace.stringValue,
      meta: workspaceObjectMeta(ws, "workspace"),
      image: source.build.image,
      dependsOn: [data.claim],
      user,
      workspaceFolder: folder,
      variablesSecretName: variablesSecret.secretName,
      localEnvDefaults: localEnv.text,
      userEnvProbe: mapping.userEnvProbe.mode,
      featureEntrypoints: mapping.entrypoints.text,
      envScripts: source.envScripts,
      resources: {
        requests: sizing.requests.asStringMap,
        // A plan-time map the policy cannot evaluate: cpu and memory are always in it
        // (lib/devcontainer/sizing.ts; test/templates/devcontainer plans it).
        limits: declareLimits(this, sizing.limits, ["cpu", "memory"]).asStringMap,
      },
      nodeSelector: placement.nodeSelector,
      tolerations: placement.tolerations,
      affinity: placement.affinity,
      runtime,
      mounts,
      imagePullSecretName: vars.imagePullSecretName.stringExpr,
    });
  }

  /** What the workspace page shows about the pod and the data volume. */
  private resourcesMetadata(
    { variables: vars, workspace: ws }: DevcontainerWorkspaceProps,
    source: DevcontainerSource,
    { placement }: PodMapping,
    pod: DevcontainerPod,
    data: DataVolume,
  ): void {
    resourceMetadata(this, "pod_info", {
      count: ws.startCount,
      resourceId: hcl<string>`${pod.deployment.deployment.fqn}[0].id`.asString,
      items: {
        Image: source.build.image,
        "Image tag": source.imageTag.asString,
        Commit: hcl<string>`coalesce(${source.commit}, "unknown")`.asString,
        Namespace: vars.namespace.stringValue,
        "Node placement":
          hcl<string>`join(", ", [for k, v in ${placement.nodeSelector} : format("%s=%s", k, v)])`
            .asString,
        // By name, never a value: the user's own account, the template's token, or none.
        "Build git credential": source.gitCredentialUsed,
      },
    });
    resourceMetadata(this, "data_volume", {
      resourceId: data.claim.id,
      items: {
        // The claim's own size: it is fixed at creation, so a later cap or parameter never
        // shows a size the disk does not have.
        "Disk size": hcl<string>`${data.claim.fqn}.spec[0].resources[0].requests["storage"]`
          .asString,
        Namespace: vars.namespace.stringValue,
      },
    });
  }
}

/** The data volume's claim: the home, /workspaces and the repository's volumes. */
function dataClaimName(ws: WorkspaceData): string {
  return `coder-${ws.id}-data`;
}

/** The user's choices and the workspace id, as expressions (parameter values are strings). */
interface Chosen {
  readonly repository: Expr<string>;
  readonly branch: Expr<string>;
  readonly rebuild: Expr<string>;
  readonly cpu: Expr<string>;
  readonly memory: Expr<string>;
  readonly diskSize: Expr<string>;
  readonly variablesText: Expr<string>;
  readonly workspaceId: Expr<string>;
}

/** Each parameter's value and the workspace id, read once. */
function chosen({ parameters: params, workspace: ws }: DevcontainerWorkspaceProps): Chosen {
  return {
    repository: Expr.of<string>(params.repository.value),
    branch: Expr.of<string>(params.branch.value),
    rebuild: Expr.of<string>(params.rebuild.value),
    cpu: Expr.of<string>(params.cpu.value),
    memory: Expr.of<string>(params.memory.value),
    diskSize: Expr.of<string>(params.diskSize.value),
    variablesText: Expr.of<string>(params.devcontainerVariables.value),
    workspaceId: Expr.of<string>(ws.id),
  };
}

/** The repository's configuration, mapped onto the pod. */
interface PodMapping {
  readonly user: DevcontainerWorkspaceUser;
  readonly sizing: DevcontainerSizing;
  readonly placement: DevcontainerPlacement;
  readonly folder: DevcontainerWorkspaceFolder;
  readonly runtime: DevcontainerRuntime;
  readonly waitFor: DevcontainerWaitFor;
  readonly userEnvProbe: DevcontainerUserEnvProbe;
  readonly localFolder: DevcontainerLocalWorkspaceFolder;
  readonly ignored: DevcontainerIgnoredCustomizations;
  readonly entrypoints: DevcontainerFeatureEntrypoints;
  readonly featureReport: DevcontainerFeatureReport;
  readonly docker: DevcontainerDockerWarnings;
  readonly mounts: DevcontainerMounts;
  readonly localEnv: DevcontainerLocalEnv;
  readonly userSecrets: DevcontainerUserSecrets;
}

/** What the pod mounts besides the image: the variables Secret and the data volume. */
interface WorkspaceVolumes {
  readonly variablesSecret: DevcontainerVariablesSecret;
  readonly data: DataVolume;
}
