import {
  coderProvider,
  type Construct,
  DevcontainerRuntime,
  DataVolume,
  declareLimits,
  DevcontainerAgent,
  DevcontainerAgentEnv,
  DevcontainerApps,
  devcontainerBuilderProvider,
  DevcontainerMounts,
  DevcontainerParameters,
  DevcontainerPlacement,
  DevcontainerPod,
  DevcontainerQuantityCaps,
  DevcontainerScripts,
  DevcontainerSizing,
  DevcontainerSource,
  DevcontainerTemplateVariables,
  DevcontainerUserSecrets,
  DevcontainerVariablesSecret,
  DevcontainerWarnings,
  DevcontainerDockerWarnings,
  DevcontainerGitCredentials,
  portSlotWarnings,
  hcl,
  type IResolvable,
  DevcontainerKubernetesCustomizations,
  DevcontainerWaitFor,
  DevcontainerLocalEnv,
  BACKGROUND_STATE_METADATA_SCRIPT,
  resourceMetadata,
  ResourcesMonitoringVariables,
  sizePresets,
  STANDARD_SIZE_PRESETS,
  TemplateStack,
  Token,
  UserConfigModules,
  workspaceClusterProvider,
  WorkspaceData,
  DevcontainerWorkspaceFolder,
  workspaceObjectMeta,
  DevcontainerWorkspaceUser,
} from "../../lib";

/**
 * `devcontainer`: a workspace built from a repository's Dev Container configuration.
 * The devcontainer-builder service (already running in the cluster) builds the image;
 * its metadata maps onto one Kubernetes pod that runs the Coder agent as the image's
 * remote user, with the home, /workspaces and the repository's volumes on one PVC.
 */
export class DevcontainerTemplate extends TemplateStack {
  constructor(scope: Construct, id: string) {
    super(scope, id, {
      sourceDir: "templates/devcontainer",
      frontMatter: {
        displayName: "Dev Container",
        description: "A workspace built from the repository's devcontainer.json, on Kubernetes",
        icon: "/icon/docker.svg",
      },
    });

    const vars = new DevcontainerTemplateVariables(this, "variables");
    const caps = new DevcontainerQuantityCaps(this, "quantity_caps");
    const monitoring = new ResourcesMonitoringVariables(this);
    coderProvider(this);
    workspaceClusterProvider(this, vars.useKubeconfig);
    devcontainerBuilderProvider(this, vars.builderEndpoint);

    const ws = new WorkspaceData(this, "workspace");
    const params = new DevcontainerParameters(this, "parameters");
    sizePresets(this, {
      presets: STANDARD_SIZE_PRESETS,
      cpu: params.cpu,
      memory: params.memory,
      memoryUnit: "GiB",
    });
    const git = new DevcontainerGitCredentials(this, "git", {
      externalAuthId: vars.externalAuthId,
      username: vars.gitCredentialsUsername,
      token: vars.gitCredentialsToken,
      hosts: vars.gitCredentialsHosts,
      externalAuthHost: vars.externalAuthHost,
      repository: params.repository.value,
      isPrebuild: ws.workspace.isPrebuild,
    });
    const source = new DevcontainerSource(this, "source", {
      workspace: ws,
      repository: params.repository.value,
      branch: params.branch.value,
      rebuild: params.rebuild.value,
      gitCredentials: git.buildCredentials,
    });
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
      maxDisk: caps.maxDisk.numberValue,
      maxEphemeralStorage: caps.maxEphemeralStorage.numberValue,
      maxExtendedResources: caps.maxExtendedResources.value,
    });
    const placement = new DevcontainerPlacement(this, "placement", {
      customizations,
      allowNodePlacement: vars.allowNodePlacement.booleanValue,
      arch: source.arch.asString,
    });
    const folder = new DevcontainerWorkspaceFolder(this, "folder", {
      repository: params.repository.value,
      workspaceFolder: hcl`try(${dc}.workspace_folder, null)`,
      workspaceId: ws.id,
      homeDir: user.homeDir,
      workspaceMount: hcl`try(${source.configuration.asString}.workspaceMount, null)`,
    });
    const runtime = new DevcontainerRuntime(this, "runtime", {
      runtime: source.runtime.asString,
      allowPrivileged: vars.allowPrivileged.booleanValue,
      podSecurityLevel: vars.podSecurityLevel.stringValue,
      uid: user.uid,
    });
    const waitFor = new DevcontainerWaitFor(this, "wait_for", {
      configuration: source.configuration.asString,
    });
    const docker = new DevcontainerDockerWarnings(this, "docker", {
      configuration: source.configuration.asString,
      lifecycleScripts: source.lifecycleScripts.expression as IResolvable,
      metadataJson: hcl`try(${dc}.metadata_json, "[]")`,
    });
    const claimName = `coder-${ws.id}-data`;
    const mounts = new DevcontainerMounts(this, "mounts", {
      mounts: source.mounts.asList,
      workspaceFolder: folder.path,
      repositoryFolder: folder.repositoryFolder,
      workspaceFolderMounted: folder.mounted,
      homeDir: user.homeDir,
      workspaceId: ws.id,
      shmSizeLimit: runtime.shmSizeLimit,
      claimName,
    });
    // Kept apart so that other sources of ${localEnv:…} values can be merged into it.
    const localEnv = new DevcontainerLocalEnv(this, "local_env", {
      homeDir: user.homeDir,
      remoteUser: user.remoteUser,
    });
    const userSecrets = new DevcontainerUserSecrets(this, "user_secrets", {
      names: vars.userSecrets,
      isPrebuild: ws.workspace.isPrebuild,
    });
    const warnings = new DevcontainerWarnings(this, "warnings", {
      serviceWarnings: hcl`concat(${source.warnings.asList}, ${source.configurationWarnings.asList}, ${source.portWarnings.asList}, ${portSlotWarnings(source.ports.expression as IResolvable, vars.maxForwardedPorts.numberValue)}, ${source.extensionWarnings.asList}, ${source.variableWarnings.asList}, ${source.envScriptWarnings.asList}, ${folder.warnings}, ${waitFor.warnings}, ${docker.warnings})`,
      resourceWarnings: sizing.warnings,
      placementWarnings: placement.warnings,
      mountWarnings: mounts.warnings,
      capabilityWarnings: runtime.warnings,
      uidWarnings: user.warnings,
      variables: source.variables.asList,
      variablesText: params.devcontainerVariables.value,
      providedVariables: userSecrets.names,
      defaultedVariables: localEnv.names,
    });

    const agent = new DevcontainerAgent(this, "agent", {
      variablesMetadataScript: warnings.variablesMetadataScript,
      warningsMetadataScript: warnings.warningsMetadataScript,
      backgroundLifecycleScript: BACKGROUND_STATE_METADATA_SCRIPT,
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

    const variablesSecret = new DevcontainerVariablesSecret(this, "variables_secret", {
      name: `coder-${ws.id}-variables`,
      namespace: vars.namespace.stringValue,
      meta: workspaceObjectMeta(ws, "variables"),
      variablesText: params.devcontainerVariables.value,
      userSecrets: userSecrets.values,
    });

    const data = new DataVolume(this, "data", {
      name: claimName,
      namespace: vars.namespace.stringValue,
      size: sizing.diskSize,
      meta: workspaceObjectMeta(ws, "pvc"),
    });

    new DevcontainerScripts(this, "scripts", {
      // The clone (with the user's git credentials), the hooks and the settings merge belong
      // to the user: not run in an unclaimed prebuild, run by the agent after the claim.
      startCount: ws.claimedStartCount,
      agentId: agent.id,
      workspaceFolder: folder.path,
      repositoryFolder: folder.repositoryFolder,
      repository: params.repository.value,
      branch: params.branch.value,
      commit: source.commit.asString,
      lifecycleScripts: source.lifecycleScripts.expression as IResolvable,
      waitFor,
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
      ports: source.ports.expression as IResolvable,
    });

    const pod = new DevcontainerPod(this, "pod", {
      workspace: ws,
      agent: agent.agent,
      namespace: vars.namespace.stringValue,
      meta: workspaceObjectMeta(ws, "workspace"),
      image: source.build.image,
      dependsOn: [data.claim],
      user,
      workspaceFolder: folder,
      variablesSecretName: variablesSecret.secretName,
      localEnvDefaults: localEnv.text,
      envScripts: source.envScripts.expression as IResolvable,
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
