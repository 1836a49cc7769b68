/**
 * The devcontainer workspace: a repository's Dev Container configuration, built into an image
 * by the devcontainer-builder service, mapped onto one Kubernetes pod that runs the Coder agent
 * as the image's remote user, with the home, /workspaces and the repository's volumes on one
 * PVC. This is the pattern a template composes; the steps it is made of (sizing, placement,
 * mounts, the user, the runtime, the scripts, the warnings, …) are its own and not exported:
 * each decides one thing at apply time as named locals, and each is planned alone by the tests
 * under test/devcontainer/.
 */
import { Construct, Token } from "../core/cdk";
import { hcl } from "../core/expr";
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

  constructor(scope: Construct, id: string, props: DevcontainerWorkspaceProps) {
    super(scope, id);
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
    parameters: params,
  }: DevcontainerWorkspaceProps): DevcontainerSource {
    const git = new DevcontainerGitCredentials(this, "git", {
      externalAuthId: vars.externalAuthId,
      username: vars.gitCredentialsUsername,
      token: vars.gitCredentialsToken,
      hosts: vars.gitCredentialsHosts,
      externalAuthHost: vars.externalAuthHost,
      allowTemplateFallback: vars.allowTemplateGitTokenFallback,
      repository: params.repository.value,
      isPrebuild: ws.workspace.isPrebuild,
    });
    return new DevcontainerSource(this, "source", {
      workspace: ws,
      repository: params.repository.value,
      branch: params.branch.value,
      rebuild: params.rebuild.value,
      gitCredentials: git.buildCredentials,
      gitCredentialName: git.credentialName.asString,
    });
  }

  /** What the configuration maps to on the pod: its user, size, place, folder, runtime, mounts. */
  private podMapping(inputs: DevcontainerWorkspaceProps, source: DevcontainerSource): PodMapping {
    const { variables: vars, workspace: ws } = inputs;
    const { user, sizing, placement } = this.userSizeAndPlacement(inputs, source);
    const folder = this.workspaceFolder(inputs, source, user);
    const runtime = new DevcontainerRuntime(this, "runtime", {
      runtime: source.runtime.asString,
      allowPrivileged: vars.allowPrivileged.booleanValue,
      podSecurityLevel: vars.podSecurityLevel.stringValue,
      uid: user.uid,
    });
    const waitFor = new DevcontainerWaitFor(this, "wait_for", {
      configuration: source.configuration.asString,
    });
    const localFolder = new DevcontainerLocalWorkspaceFolder(this, "local_folder", {
      variables: source.variables.asList,
      workspaceFolder: folder.path,
      repositoryFolder: folder.repositoryFolder,
    });
    const ignored = new DevcontainerIgnoredCustomizations(this, "ignored_customizations", {
      configuration: source.configuration.asString,
    });
    const { entrypoints, featureReport, userEnvProbe, docker } = this.imageFeatures(source);
    const mounts = new DevcontainerMounts(this, "mounts", {
      mounts: source.mounts.asList,
      workspaceFolder: folder.path,
      repositoryFolder: folder.repositoryFolder,
      workspaceFolderMounted: folder.mounted,
      homeDir: user.homeDir,
      workspaceId: ws.id,
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
      expected: vars.userSecrets,
      variables: source.variables.asList,
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
    const imageMetadata = new NamedLocals(this, "").add(
      "image_metadata",
      hcl`try(jsondecode(try(${source.dc.asString}.metadata_json, "[]")), [])`,
      "The image's label entries (one per Feature and the base image), or none when unreadable.",
    );
    const entrypoints = new DevcontainerFeatureEntrypoints(this, "feature_entrypoints", {
      metadata: imageMetadata,
    });
    const featureReport = new DevcontainerFeatureReport(this, "feature_report", {
      configuration: source.configuration.asString,
      metadata: imageMetadata,
    });
    const userEnvProbe = new DevcontainerUserEnvProbe(this, "user_env_probe", {
      configuration: source.configuration.asString,
    });
    const docker = new DevcontainerDockerWarnings(this, "docker", {
      configuration: source.configuration.asString,
      lifecycleScripts: source.lifecycleScripts,
      metadata: imageMetadata,
    });
    return { entrypoints, featureReport, userEnvProbe, docker };
  }

  /** The container's user, its requests and limits, and the node it may run on. */
  private userSizeAndPlacement(
    { variables: vars, caps, parameters: params }: DevcontainerWorkspaceProps,
    source: DevcontainerSource,
  ): Pick<PodMapping, "user" | "sizing" | "placement"> {
    const dc = source.dc.asString;
    const user = new DevcontainerWorkspaceUser(this, "user", {
      remoteUser: hcl`try(${dc}.remote_user, null)`,
      containerUser: hcl`try(${dc}.container_user, null)`,
      runtime: source.runtime.asString,
      metadataRead: hcl`${dc} != null`,
    });
    const customizations = new DevcontainerKubernetesCustomizations(this, "customizations", {
      configuration: source.configuration.asString,
    });
    const sizing = new DevcontainerSizing(this, "sizing", {
      customizations,
      hostRequirements: source.hostRequirements.asString,
      cpu: params.cpu.value,
      memory: params.memory.value,
      diskSize: params.diskSize.value,
      maxCpu: vars.maxCpu.numberValue,
      maxMemory: vars.maxMemory.numberValue,
      // As for docker run, --memory caps the container: the limit, not a reservation.
      memoryIsLimit: hcl`anytrue([for a in try(concat(${source.configuration.asString}.runArgs, []), []) : can(regex("^(--memory(=|$)|-m($|[0-9]))", tostring(a)))])`,
      maxDisk: caps.maxDisk.numberValue,
      maxEphemeralStorage: caps.maxEphemeralStorage.numberValue,
      maxExtendedResources: caps.maxExtendedResources.value,
    });
    const placement = new DevcontainerPlacement(this, "placement", {
      customizations,
      allowNodePlacement: vars.allowNodePlacement.booleanValue,
      arch: source.arch.asString,
    });
    return { user, sizing, placement };
  }

  /** Where the repository and the workspace folder live in the container. */
  private workspaceFolder(
    { workspace: ws, parameters: params }: DevcontainerWorkspaceProps,
    source: DevcontainerSource,
    user: DevcontainerWorkspaceUser,
  ): DevcontainerWorkspaceFolder {
    return new DevcontainerWorkspaceFolder(this, "folder", {
      repository: params.repository.value,
      workspaceFolder: hcl`try(${source.dc.asString}.workspace_folder, null)`,
      workspaceId: ws.id,
      homeDir: user.homeDir,
      workspaceMount: hcl`try(${source.configuration.asString}.workspaceMount, null)`,
    });
  }

  /** The build log's warnings: every value of the repository's that was refused or capped. */
  private buildLogWarnings(
    { variables: vars, parameters: params }: DevcontainerWorkspaceProps,
    source: DevcontainerSource,
    mapping: PodMapping,
  ): DevcontainerWarnings {
    const { user, sizing, placement, folder, runtime, waitFor, docker, mounts } = mapping;
    return new DevcontainerWarnings(this, "warnings", {
      serviceWarnings: hcl`concat(${source.warnings.asList}, ${source.configurationWarnings.asList}, ${source.portWarnings.asList}, ${portSlotWarnings(source.ports, vars.maxForwardedPorts.numberValue)}, ${source.extensionWarnings.asList}, ${source.variableWarnings.asList}, ${source.envScriptWarnings.asList}, ${folder.warnings}, ${waitFor.warnings}, ${mapping.userEnvProbe.warnings}, ${mapping.localFolder.warnings}, ${mapping.ignored.warnings}, ${mapping.entrypoints.warnings}, ${mapping.featureReport.warnings}, ${docker.warnings})`,
      resourceWarnings: sizing.warnings,
      placementWarnings: placement.warnings,
      mountWarnings: mounts.warnings,
      capabilityWarnings: runtime.warnings,
      uidWarnings: user.warnings,
      variables: source.variables.asList,
      variablesText: params.devcontainerVariables.value,
      providedVariables: mapping.userSecrets.expectedNames,
      defaultedVariables: mapping.localEnv.names,
    });
  }

  /** The agent, the user's dotfiles and git identity, and the agent's environment. */
  private devcontainerAgent(
    { monitoring, workspace: ws, parameters: params }: DevcontainerWorkspaceProps,
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
      resourcesMonitoring: monitoring.monitoring(user.homeDir),
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
      imageCommit: source.commit.asString,
      branch: params.branch.value,
      rebuild: params.rebuild.value,
    });
    return agent;
  }

  /** The Secret with the Dev Container variables and the data volume. */
  private workspaceVolumes(
    { variables: vars, workspace: ws, parameters: params }: DevcontainerWorkspaceProps,
    { sizing }: PodMapping,
  ): WorkspaceVolumes {
    const variablesSecret = new DevcontainerVariablesSecret(this, "variables_secret", {
      name: `coder-${ws.id}-variables`,
      namespace: vars.namespace.stringValue,
      meta: workspaceObjectMeta(ws, "variables"),
      variablesText: params.devcontainerVariables.value,
    });

    const data = new DataVolume(this, "data", {
      name: dataClaimName(ws),
      namespace: vars.namespace.stringValue,
      size: sizing.diskSize,
      meta: workspaceObjectMeta(ws, "pvc"),
    });
    return { variablesSecret, data };
  }

  /** The clone, the lifecycle hooks and the settings merge, and the IDEs and forwarded ports. */
  private scriptsAndApps(
    { variables: vars, workspace: ws, parameters: params }: DevcontainerWorkspaceProps,
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
      repository: params.repository.value,
      branch: params.branch.value,
      commit: source.commit.asString,
      lifecycleScripts: source.lifecycleScripts,
      waitFor,
      localEnvSecretNames: userSecrets.secretNames,
      vscodeExtensions: source.vscodeExtensions.asList,
      vscodeSettings: source.vscodeSettings.asString,
      ownExtension: vars.vscodeExtension.stringValue,
      lifecycleTimeoutSeconds: Token.asNumber(
        hcl`${vars.lifecycleTimeoutMinutes.numberValue} * 60`,
      ),
    });
    new DevcontainerApps(this, "apps", {
      startCount: ws.startCount,
      agentId: agent.id,
      workspaceFolder: folder.path,
      acceptVscodeLicense: vars.acceptVscodeLicense.booleanValue,
      subdomainApps: vars.subdomainApps.booleanValue,
      maxForwardedPorts: vars.maxForwardedPorts.numberValue,
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
        requests: Token.asStringMap(sizing.requests),
        // A plan-time map the policy cannot evaluate: cpu and memory are always in it
        // (lib/devcontainer/sizing.ts; test/templates/devcontainer plans it).
        limits: Token.asStringMap(declareLimits(this, sizing.limits, ["cpu", "memory"])),
      },
      nodeSelector: placement.nodeSelector,
      tolerations: placement.tolerations,
      affinity: placement.affinity,
      runtime,
      mounts,
      imagePullSecretName: vars.imagePullSecretName.stringValue,
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
      resourceId: Token.asString(hcl`${pod.deployment.deployment.fqn}[0].id`),
      items: {
        Image: source.build.image,
        "Image tag": source.imageTag.asString,
        Commit: Token.asString(hcl`coalesce(${source.commit.asString}, "unknown")`),
        Namespace: vars.namespace.stringValue,
        "Node placement": Token.asString(
          hcl`join(", ", [for k, v in ${placement.nodeSelector} : format("%s=%s", k, v)])`,
        ),
        // By name, never a value: the user's own account, the template's token, or none.
        "Build git credential": source.gitCredentialUsed,
      },
    });
    resourceMetadata(this, "data_volume", {
      resourceId: data.claim.id,
      items: {
        // The claim's own size: it is fixed at creation, so a later cap or parameter never
        // shows a size the disk does not have.
        "Disk size": Token.asString(
          hcl`${data.claim.fqn}.spec[0].resources[0].requests["storage"]`,
        ),
        Namespace: vars.namespace.stringValue,
      },
    });
  }
}

/** The data volume's claim: the home, /workspaces and the repository's volumes. */
function dataClaimName(ws: WorkspaceData): string {
  return `coder-${ws.id}-data`;
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
