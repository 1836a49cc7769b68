import {
  AgentTokenSecret,
  type AgentTokenSecretRef,
  agentContainer,
  archNodeSelector,
  checkProp,
  coderProvider,
  Construct,
  cpuUsage,
  DataVolume,
  diskUsage,
  DNS_LABEL,
  DNS_SUBDOMAIN,
  embeddedScript,
  emptyOr,
  GIT_URL_WITHOUT_PASSWORD,
  harvesterKubeconfigPathVariable,
  harvesterProvider,
  hcl,
  HTTP_URL,
  HTTPS_URL,
  IMAGE_REFERENCE,
  type IResolvable,
  item,
  KUBECONFIG_SECRET_KEY,
  KubeconfigSecret,
  NON_ROOT_ID,
  nonEmptyListOf,
  oneOf,
  POSITIVE_NUMBER,
  POSITIVE_WHOLE_NUMBER,
  ramUsage,
  RBAC_ROLE_NAME,
  resourceMetadata,
  ResourcesMonitoringVariables,
  type RoleBindingTarget,
  type Rule,
  sanitizedLabelValue,
  ScopedServiceAccount,
  type ScopedRoleBinding,
  SessionToken,
  WorkspaceNamespace,
  SHA256_HEX,
  type SizePreset,
  sizePresets,
  TemplateStack,
  TemplateVariable,
  TerraformIterator,
  NamedLocals,
  TerraformVariable,
  Token,
  wholeNumberBetween,
  useKubeconfigVariable,
  AgentSkill,
  ClaudeCode,
  ClaudeCodeVariables,
  WorkspaceAgent,
  workspaceArchVariable,
  workspaceClusterProvider,
  WorkspaceData,
  WorkspaceDeployment,
  workspaceObjectMeta,
  type WorkspaceObjectMeta,
  WorkspaceParameter,
  WorkspaceScript,
} from "../../lib";

/** Operator configuration, fixed when the template is generated. */
export interface PackerBuilderTemplateProps {
  /** Namespace of the workspace pods on the workspace cluster. @default "packer-builder" */
  readonly workspaceNamespace?: string;
  /** Namespace on Harvester where the workspace identity lives and builds run. @default "packer-dev" */
  readonly identityNamespace?: string;
  /**
   * Existing roles bound to each workspace's Harvester identity, in the identity namespace
   * or in `harvester-public` (the namespaces the template documents), never to the built-in
   * `cluster-admin`, `admin` or `edit` ClusterRoles or Kubernetes' own `system:*` ClusterRoles,
   * unless an entry sets `allowUnsafe`; a role name once per namespace.
   * @default Role packer-builder and Role packer-builder-read in the identity namespace
   */
  readonly identityRoleBindings?: readonly IdentityRoleBinding[];
  /** User and group id the container runs as (the image's workspace user). @default 1000 */
  readonly uid?: number;
}

/** One binding of an existing role to the workspace's Harvester identity. */
export interface IdentityRoleBinding extends RoleBindingTarget {
  /**
   * The operator's explicit override: bind this entry even though its role is a built-in
   * broad ClusterRole (`cluster-admin`, `admin`, `edit`, `system:*`) or its namespace is neither the
   * identity namespace nor `harvester-public`. Such a binding can undo the template's
   * promises (publishing is additive, the identity is scoped to the build namespace), so
   * the operator says so per entry. @default false
   */
  readonly allowUnsafe?: boolean;
}

/** The shared build namespace on Harvester, where identities live and builds run by default. */
export const DEFAULT_IDENTITY_NAMESPACE = "packer-dev";
/** What every workspace key (`<ws>`, also its identities' name) starts with; the workspace id follows. */
export const WORKSPACE_KEY_PREFIX = "coder-";
/** The public images namespace on Harvester, where publishing creates images. */
export const PUBLIC_IMAGES_NAMESPACE = "harvester-public";
/** Built-in ClusterRoles that grant (nearly) everything in a namespace or cluster. */
const BROAD_CLUSTER_ROLES = ["cluster-admin", "admin", "edit"];
/**
 * Kubernetes' own ClusterRoles are named `system:…`: among them the pieces `admin` and `edit`
 * are aggregated from (`system:aggregate-to-admin`, `system:aggregate-to-edit`: Secrets,
 * `pods/exec`, RBAC) and the controllers' roles. None is a role for a build identity.
 */
const SYSTEM_CLUSTER_ROLE_PREFIX = "system:";
const isBuiltInBroadClusterRole = (binding: IdentityRoleBinding): boolean =>
  binding.roleKind === "ClusterRole" &&
  (BROAD_CLUSTER_ROLES.includes(binding.roleName) ||
    binding.roleName.startsWith(SYSTEM_CLUSTER_ROLE_PREFIX));
const IDENTITY_BINDING_FIELDS = ["namespace", "roleKind", "roleName", "allowUnsafe"];

/** Prefix of a workspace's own build namespace (per-workspace mode): `packer-<workspace id>`. */
export const BUILD_NAMESPACE_PREFIX = "packer-";
/**
 * The label every namespace the template creates carries (`app.coder.io/template=packer-builder`):
 * the admission policies select and recognize the template's namespaces by it
 * (templates/packer-builder/admission-policy.ts, provisioner-policy.ts).
 */
export const TEMPLATE_NAMESPACE_LABEL = { key: "app.coder.io/template", value: "packer-builder" };

/** The roles bound to each workspace's Harvester identity: the operator's, else the defaults. */
export function identityRoleBindingsOf(
  props: Pick<PackerBuilderTemplateProps, "identityNamespace" | "identityRoleBindings">,
): readonly RoleBindingTarget[] {
  const identityNamespace = props.identityNamespace ?? DEFAULT_IDENTITY_NAMESPACE;
  return (
    props.identityRoleBindings?.map(({ namespace, roleKind, roleName }) => ({
      namespace,
      roleKind,
      roleName,
    })) ?? [
      { namespace: identityNamespace, roleKind: "Role", roleName: "packer-builder" },
      { namespace: identityNamespace, roleKind: "Role", roleName: "packer-builder-read" },
    ]
  );
}
/** Hours a workspace's Harvester token lives by default: a working day and a long build. */
export const DEFAULT_TOKEN_HOURS = 10;
/** The longest token lifetime an operator may set, in hours. */
export const MAX_TOKEN_HOURS = 24;

/** Label every build VM of a workspace carries; the stop sweep deletes by it. */
export const VM_LABEL_KEY = "app.coder.io/workspace";
/** Where the workspace kubeconfig is mounted in the pod. */
export const PACKER_KUBECONFIG_PATH = "/etc/packer-kubeconfig.yaml";
/** The persistent volume's mount point; the clone lives there. */
export const PERSISTENT_DIR = "/persistent";
/** The clone on the persistent volume. */
export const CLONE_DIR = `${PERSISTENT_DIR}/ggl_core_infra`;
/** Seconds the stop sweep's kubectl may take; the pod's grace period leaves room for it. */
const SWEEP_TIMEOUT_SECONDS = 60;
/** Seconds the first clone may take. */
const CLONE_TIMEOUT_SECONDS = 600;
const SCRIPTS = "templates/packer-builder/scripts";
/** The pod's CPU and memory options (builds run as Harvester VMs, so the pod stays small). */
const PACKER_BUILDER_CPUS = ["1", "2", "4"];
const PACKER_BUILDER_MEMORY = ["2", "4", "8"];
/** Size presets from those options; medium is what the parameters default to. */
export const PACKER_BUILDER_SIZES: readonly SizePreset[] = [
  { id: "small", name: "Small", cpu: PACKER_BUILDER_CPUS[0], memory: PACKER_BUILDER_MEMORY[0] },
  {
    id: "medium",
    name: "Medium",
    cpu: PACKER_BUILDER_CPUS[1],
    memory: PACKER_BUILDER_MEMORY[1],
    default: true,
  },
  { id: "large", name: "Large", cpu: PACKER_BUILDER_CPUS[2], memory: PACKER_BUILDER_MEMORY[2] },
];

/**
 * `packer-builder`: workspaces that drive Packer builds in Harvester (see README.md).
 *
 * Two clusters: the workspace cluster (default kubernetes provider) runs the pod; the
 * parent Harvester cluster (provider alias `harvester`) holds a per-workspace identity
 * scoped to the build namespace. The identity and everything the pod needs besides the
 * pod itself have no count: they live until the workspace is deleted.
 */
export class PackerBuilderTemplate extends TemplateStack {
  constructor(scope: Construct, id: string, props: PackerBuilderTemplateProps = {}) {
    super(scope, id, {
      sourceDir: "templates/packer-builder",
      frontMatter: {
        // Coder Agents choose a template by its name and description (template optimization);
        // Coder keeps a description under 128 characters.
        displayName: "Packer image builder (Harvester)",
        description:
          "Packer VM image builds on Harvester (ISO installs, golden images); infra repo pre-cloned, Packer and kubectl, scoped identity",
        icon: "/icon/terraform.svg",
      },
      extraFiles: ["subagents"],
    });
    checkPackerBuilderProps(id, props);
    const workspaceNamespace = props.workspaceNamespace ?? "packer-builder";
    const identityNamespace = props.identityNamespace ?? DEFAULT_IDENTITY_NAMESPACE;
    const configuredBindings = identityRoleBindingsOf(props);
    const uid = props.uid ?? 1000;

    const useKubeconfig = useKubeconfigVariable(this);
    const harvesterKubeconfigPath = harvesterKubeconfigPathVariable(this);
    coderProvider(this);
    workspaceClusterProvider(this, useKubeconfig);
    const harvester = harvesterProvider(this, harvesterKubeconfigPath);
    const vars = new PackerBuilderVariables(this, "variables");
    const arch = workspaceArchVariable(this);
    const monitoring = new ResourcesMonitoringVariables(this);
    const claudeCode = new ClaudeCodeVariables(this);

    const workspace = this.workspaceNames(vars, workspaceNamespace);
    const size = this.podParameters(vars);
    const build = this.harvesterBuildNamespace(workspace, harvester, identityNamespace);
    const identity = this.harvesterIdentity(
      workspace,
      harvester,
      identityNamespace,
      build,
      configuredBindings,
    );
    const clusterObjects = this.workspaceClusterObjects(workspace, build, identity, size);
    const agent = this.agentAndScripts(workspace, build, arch, monitoring, claudeCode);
    const deployment = this.workspacePod(workspace, size, clusterObjects, agent, arch, uid);
    this.resourcesMetadata(workspace, size, clusterObjects, build, deployment, arch);
  }

  /** The workspace, its key `<ws>` and the labels of everything made for it. */
  private workspaceNames(
    vars: PackerBuilderVariables,
    workspaceNamespace: string,
  ): PackerBuilderWorkspace {
    const ws = new WorkspaceData(this, "workspace");
    // <ws>: unique across users (two users' "dev" workspaces differ), a valid name and label value.
    const locals = new NamedLocals(this, "");
    const wsKey = locals.add(
      "workspace_key",
      hcl`format("%s%s", ${WORKSPACE_KEY_PREFIX}, lower(${ws.id}))`,
      'Unique across users (two users\' "dev" differ), and always a valid name and label value.',
    ).asString;
    // Every object carries both labels: one local each, not the expression nine times over.
    const nameLabel = locals.add(
      "workspace_name_label",
      sanitizedLabelValue(ws.name),
      "A label value is at most 63 of [a-z0-9.-]: Coder's names may hold more; Coder keeps them.",
    ).asString;
    const ownerLabel = locals.add(
      "owner_name_label",
      sanitizedLabelValue(ws.owner.name),
      "A label value is at most 63 of [a-z0-9.-]: Coder's names may hold more; Coder keeps them.",
    ).asString;
    const meta = (component: string): WorkspaceObjectMeta => {
      const base = workspaceObjectMeta(ws, component);
      return {
        labels: {
          ...base.labels,
          "com.coder.workspace.name": nameLabel,
          "com.coder.user.username": ownerLabel,
          [VM_LABEL_KEY]: wsKey,
        },
        annotations: base.annotations,
      };
    };
    return { vars, ws, wsKey, meta, workspaceNamespace };
  }

  /** The pod's CPU, memory and disk parameters, and the size presets over CPU and memory. */
  private podParameters(vars: PackerBuilderVariables): PackerBuilderSize {
    const locals = new NamedLocals(this, "");
    const cpu = new WorkspaceParameter(this, "cpu", {
      order: 1,
      displayName: "CPU",
      description: "CPU cores of the workspace pod (builds run as VMs in Harvester, not here).",
      default: PACKER_BUILDER_SIZES.find((s) => s.default)!.cpu,
      icon: "/icon/memory.svg",
      mutable: true,
      formType: "radio",
      options: PACKER_BUILDER_CPUS.map((n) => ({ name: `${n} Cores`, value: n })),
    });
    const cpuLimit = locals.add(
      "cpu_limit",
      hcl`min(tonumber(${cpu.value}), ${vars.maxCpu.numberValue})`,
      "The CPU parameter is the user's, max_cpu the operator's cap on it.",
    ).asNumber;
    const memory = new WorkspaceParameter(this, "memory", {
      order: 2,
      displayName: "Memory",
      description: "Memory of the workspace pod, in GiB.",
      default: PACKER_BUILDER_SIZES.find((s) => s.default)!.memory,
      icon: "/icon/memory.svg",
      mutable: true,
      formType: "radio",
      options: PACKER_BUILDER_MEMORY.map((n) => ({ name: `${n} GiB`, value: n })),
    });
    sizePresets(this, { presets: PACKER_BUILDER_SIZES, cpu, memory, memoryUnit: "GiB" });
    const diskSize = new WorkspaceParameter(this, "disk_size", {
      order: 3,
      displayName: "Disk size",
      description: `Size in GiB of ${PERSISTENT_DIR} (the repository clone). It is fixed when the workspace is created.`,
      type: "number",
      default: "10",
      icon: "/emojis/1f4be.png",
      mutable: false,
      // A slider in the dynamic-parameter form; the classic form shows a number input.
      formType: "slider",
      validation: {
        min: 1,
        max: 1000,
        error: "Pick {min} to {max} GiB; the size cannot change after the workspace is created.",
      },
    });
    return { cpuLimit, memory, diskSize };
  }

  /** Where the workspace's builds run on Harvester: the shared namespace or one of its own. */
  private harvesterBuildNamespace(
    { vars, ws, meta }: PackerBuilderWorkspace,
    harvester: HarvesterProvider,
    identityNamespace: string,
  ): BuildNamespace {
    const locals = new NamedLocals(this, "");
    // Shared mode (the default): every workspace builds in the identity namespace. Per-workspace
    // mode: a namespace of the workspace's own, deleted with it and everything in it.
    const perWorkspace = vars.buildNamespacePerWorkspace.booleanValue;
    const ownNamespace = new WorkspaceNamespace(this, "build_namespace", {
      provider: harvester,
      count: Token.asNumber(hcl`${perWorkspace} ? 1 : 0`),
      // The workspace id: unique, stable across renames and prebuild claims, and always a
      // DNS-1123 label (7 + 36 characters).
      name: Token.asString(hcl`format("%s%s", ${BUILD_NAMESPACE_PREFIX}, lower(${ws.id}))`),
      meta: templateNamespaceMeta(meta("build-namespace")),
    }).namespace;
    const name = locals.add(
      "harvester_namespace",
      hcl`${perWorkspace} ? ${ownNamespace.fqn}[0].metadata[0].name : ${identityNamespace}`,
      "Builds run in the identity namespace, or in the workspace's own when it has one.",
    ).asString;
    return { perWorkspace, ownNamespace, name };
  }

  /** The workspace's identity on Harvester, bound to the configured roles, and its token. */
  private harvesterIdentity(
    { vars, ws, wsKey, meta }: PackerBuilderWorkspace,
    harvester: HarvesterProvider,
    identityNamespace: string,
    build: BuildNamespace,
    configuredBindings: readonly RoleBindingTarget[],
  ): HarvesterIdentity {
    // A binding in the identity namespace follows the identity into its own namespace, as a
    // binding of the ClusterRole of the same name (no Role exists in a namespace just made);
    // its address stays the one it has in the shared mode.
    const identityBindings: readonly ScopedRoleBinding[] = configuredBindings.map((binding) =>
      binding.namespace === identityNamespace
        ? {
            ...binding,
            namespaceValue: build.name,
            roleKindValue:
              binding.roleKind === "Role"
                ? Token.asString(hcl`${build.perWorkspace} ? "ClusterRole" : "Role"`)
                : undefined,
          }
        : binding,
    );

    const identity = new ScopedServiceAccount(this, "harvester_identity", {
      provider: harvester,
      name: wsKey,
      namespace: identityNamespace,
      namespaceValue: build.name,
      meta: meta("identity"),
      bindings: identityBindings,
    });
    // Minted at each start, bound to a Secret that exists only while the workspace runs: a
    // stop or a delete revokes it, and it expires after harvester_token_hours anyway.
    const session = new SessionToken(this, "harvester_session", {
      resourcePrefix: "harvester_identity",
      provider: harvester,
      serviceAccountName: identity.name,
      namespace: build.name,
      sessionName: `${wsKey}-session`,
      meta: meta("session"),
      count: ws.startCount,
      expirationSeconds: Token.asNumber(hcl`${vars.tokenHours.numberValue} * 3600`),
    });
    return { identity, session };
  }

  /** On the workspace cluster: the pod's own account, the kubeconfig Secret and the volume. */
  private workspaceClusterObjects(
    { vars, wsKey, meta, workspaceNamespace }: PackerBuilderWorkspace,
    build: BuildNamespace,
    { identity, session }: HarvesterIdentity,
    size: PackerBuilderSize,
  ): WorkspaceClusterObjects {
    // The pod's own account is bound to nothing: the kubelet mounts the kubeconfig Secret
    // with its own credentials, and the pod has no token for this account either.
    const podIdentity = new ScopedServiceAccount(this, "workspace_identity", {
      name: wsKey,
      namespace: workspaceNamespace,
      meta: meta("identity"),
      automountToken: false,
    });
    const kubeconfig = new KubeconfigSecret(this, "packer_kubeconfig", {
      name: `${wsKey}-packer-kubeconfig`,
      namespace: workspaceNamespace,
      meta: meta("kubeconfig"),
      server: vars.harvesterApiServer.stringValue,
      caCertificate: vars.harvesterCaCertificate.stringValue,
      token: session.token,
      defaultNamespace: build.name,
      clusterName: "harvester",
      userName: wsKey,
    });
    const persistent = new DataVolume(this, "persistent", {
      name: `${wsKey}-persistent`,
      namespace: workspaceNamespace,
      size: `${size.diskSize.value}Gi`,
      meta: meta("pvc"),
      // Deleting a running workspace: the Deployment's delete returns before its pod has
      // terminated, the claim's delete waits for the pod (DataVolume). The stop sweep runs
      // during that termination with the Harvester identity, so the identity, its token, the
      // session the token is bound to, the kubeconfig naming it and the build namespace are
      // deleted only after the claim (README "When it dies").
      dependsOn: [
        identity.serviceAccount,
        ...identity.roleBindings,
        session.session,
        session.tokenRequest,
        kubeconfig.secret,
        build.ownNamespace,
      ],
    });
    return { podIdentity, kubeconfig, persistent };
  }

  /** The agent, the clone, the AI agents' manual and Claude Code, and the build VM sweeps. */
  private agentAndScripts(
    workspace: PackerBuilderWorkspace,
    build: BuildNamespace,
    arch: TemplateVariable,
    monitoring: ResourcesMonitoringVariables,
    claudeCode: ClaudeCodeVariables,
  ): WorkspaceAgent {
    const { vars, ws, wsKey } = workspace;
    const env = {
      KUBECONFIG: PACKER_KUBECONFIG_PATH,
      PKR_VAR_kubeconfig: PACKER_KUBECONFIG_PATH,
      PKR_VAR_namespace: build.name,
      PKR_VAR_output_namespace: build.name,
      PACKER_BUILDER_WORKSPACE: wsKey,
      PACKER_BUILDER_VM_LABEL: `${VM_LABEL_KEY}=${wsKey}`,
    };
    const agent = new WorkspaceAgent(this, "agent", {
      metadata: [
        cpuUsage(),
        ramUsage(),
        diskUsage("Persistent Disk", PERSISTENT_DIR, "2_persistent_disk"),
        item(
          "Build namespace",
          "3_build_namespace",
          `kubectl config view --minify -o jsonpath='{.contexts[0].context.namespace}' 2>/dev/null || echo unknown`,
          600,
          5,
        ),
      ],
      env,
      arch: arch.stringValue,
      resourcesMonitoring: monitoring.monitoring(PERSISTENT_DIR),
      // Kept at "all": the clone uses the agent's git setup (external auth over HTTPS,
      // `coder gitssh` for SSH URLs), which no_user_data would block.
      apiKeyScope: "all",
    });
    new WorkspaceScript(this, "clone_repository", {
      // It clones with the user's git credentials (external auth, Coder SSH key), which an
      // unclaimed prebuild has none of: created at the claim, run when the agent reinitializes.
      count: ws.claimedCount,
      agent,
      displayName: "Clone repository",
      icon: "/icon/git.svg",
      runOnStart: true,
      // Login waits for the repository (or for the clone to fail and say why).
      startBlocksLogin: true,
      timeoutSeconds: CLONE_TIMEOUT_SECONDS + 60,
      script: embeddedScript(this, `${SCRIPTS}/clone-repository.sh`, [
        { name: "CLONE_REPO_URL", value: vars.repositoryUrl.stringValue },
        { name: "CLONE_DIR", value: CLONE_DIR },
        { name: "CLONE_TIMEOUT", value: String(CLONE_TIMEOUT_SECONDS) },
      ]),
    });
    // Coder Agents pick this template by its name and description and read the manual as a
    // workspace skill; Claude Code in the workspace (opt-in) signs in as the owner, never
    // with a key of the template's (docs/templates/packer-builder.md "AI agents").
    new AgentSkill(this, "agent_manual", {
      agent,
      count: ws.startCount,
      source: "templates/packer-builder/subagents/packer-builder.md",
      path: "subagents/packer-builder.md",
    });
    new ClaudeCode(this, "claude_code", {
      agent,
      startCount: ws.claimedStartCount,
      enabled: claudeCode.enabled.booleanExpr,
      auth: claudeCode.auth.stringValue,
      workdir: CLONE_DIR,
    });
    this.buildVmSweeps(workspace, build, agent);
    return agent;
  }

  /** The sweeps that delete the workspace's build VMs at stop and, what a stop left, at start. */
  private buildVmSweeps(
    { wsKey }: PackerBuilderWorkspace,
    build: BuildNamespace,
    agent: WorkspaceAgent,
  ): void {
    const sweepScript = embeddedScript(this, `${SCRIPTS}/sweep-build-vms.sh`, [
      { name: "SWEEP_WORKSPACE", value: wsKey },
      { name: "SWEEP_NAMESPACE", value: build.name },
      { name: "SWEEP_KUBECONFIG", value: PACKER_KUBECONFIG_PATH },
      { name: "SWEEP_TIMEOUT", value: String(SWEEP_TIMEOUT_SECONDS) },
    ]);
    new WorkspaceScript(this, "sweep_build_vms", {
      agent,
      displayName: "Delete leftover build VMs",
      icon: "/icon/trash.svg",
      runOnStop: true,
      timeoutSeconds: SWEEP_TIMEOUT_SECONDS + 30,
      script: sweepScript,
    });
    // The stop deletes the token's session, which revokes the token, and nothing makes that
    // wait for the pod: the stop sweep can lose that race (docs/templates/packer-builder.md,
    // "A limit on stop"). No build survives a stop, so the next start sweeps what is left,
    // with its new token.
    new WorkspaceScript(this, "sweep_previous_build_vms", {
      agent,
      displayName: "Delete build VMs of the last session",
      icon: "/icon/trash.svg",
      runOnStart: true,
      // Done before anyone (or a task) starts a build that it could catch.
      startBlocksLogin: true,
      timeoutSeconds: SWEEP_TIMEOUT_SECONDS + 30,
      script: sweepScript,
    });
  }

  /** The workspace's Deployment: the pod as the image's user, with the volume and kubeconfig. */
  private workspacePod(
    workspace: PackerBuilderWorkspace,
    size: PackerBuilderSize,
    { podIdentity, kubeconfig, persistent }: WorkspaceClusterObjects,
    agent: WorkspaceAgent,
    arch: TemplateVariable,
    uid: number,
  ): WorkspaceDeployment {
    const { vars, ws, wsKey, meta, workspaceNamespace } = workspace;
    // CODER_AGENT_TOKEN from a Secret, not a literal in the pod template (issue 43.2).
    const agentToken = new AgentTokenSecret(this, "agent_token_secret", {
      workspace: ws,
      agent,
      name: `${wsKey}-agent-token`,
      namespace: workspaceNamespace,
      meta: meta("agent-token"),
    });
    const pullSecrets = TerraformIterator.fromList(
      hcl`compact([${vars.imagePullSecretName.stringValue}])`,
    );
    return new WorkspaceDeployment(this, "deployment", {
      workspace: ws,
      name: wsKey,
      namespace: workspaceNamespace,
      meta: meta("workspace"),
      // The pod would trust whatever CA a plain-http answer carried: refuse the plan (at push
      // too) unless the CA is pinned. The bootstrap refuses it again at start.
      preconditions: [
        {
          condition: hcl`${vars.caUrl.stringValue} == "" || startswith(${vars.caUrl.stringValue}, "https://") || ${vars.caSha256.stringValue} != ""`,
          errorMessage: CA_PIN_REQUIREMENT,
        },
      ],
      dependsOn: [persistent.claim],
      pod: {
        serviceAccountName: podIdentity.name,
        automountServiceAccountToken: false,
        // The stop sweep runs while the agent shuts down; give it time before the kill.
        terminationGracePeriodSeconds: SWEEP_TIMEOUT_SECONDS + 60,
        imagePullSecrets: pullSecrets.dynamic({ name: pullSecrets.value }),
        securityContext: {
          runAsUser: String(uid),
          runAsGroup: String(uid),
          // Volumes (the PVC, the kubeconfig file) are group-owned by the workspace user's group.
          fsGroup: String(uid),
          fsGroupChangePolicy: "OnRootMismatch",
          runAsNonRoot: true,
          seccompProfile: { type: "RuntimeDefault" },
        },
        container: [this.packerBuilderContainer(vars, size, agent, agentToken)],
        volume: [
          {
            name: "persistent",
            persistentVolumeClaim: { claimName: persistent.claimName, readOnly: false },
          },
          {
            name: "packer-kubeconfig",
            // 0400, owned by root and group-owned by fsGroup; the kubelet adds group read,
            // so the file is readable by the workspace user's group and nobody else.
            secret: { secretName: kubeconfig.secretName, defaultMode: "0400" },
          },
        ],
        nodeSelector: archNodeSelector(arch.stringValue),
      },
    });
  }

  /** The agent's container: the bootstrap, the capped resources, the volume and kubeconfig. */
  private packerBuilderContainer(
    vars: PackerBuilderVariables,
    { cpuLimit, memory }: PackerBuilderSize,
    agent: WorkspaceAgent,
    tokenSecret: AgentTokenSecretRef,
  ): ReturnType<typeof agentContainer> {
    return agentContainer({
      tokenSecret,
      name: "packer-builder",
      image: vars.image.stringValue,
      imagePullPolicy: "IfNotPresent",
      agent,
      command: [
        "bash",
        "-c",
        embeddedScript(this, `${SCRIPTS}/bootstrap.sh`, [
          { name: "BOOTSTRAP_CA_URL", value: vars.caUrl.stringValue },
          { name: "BOOTSTRAP_CA_SHA256", value: vars.caSha256.stringValue },
          { name: "BOOTSTRAP_PACKER_PLUGIN_PATH", value: vars.packerPluginPath.stringValue },
          {
            name: "BOOTSTRAP_PACKER_PLUGIN_SOURCE",
            value: vars.packerPluginSource.stringValue,
          },
          { name: "BOOTSTRAP_AGENT_INIT_SCRIPT", value: agent.initScript },
        ]),
      ],
      env: [{ name: "KUBECONFIG", value: PACKER_KUBECONFIG_PATH }],
      securityContext: {
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ["ALL"] },
        seccompProfile: { type: "RuntimeDefault" },
      },
      resources: {
        // A request above the limit is refused by the API server: with max_cpu (or
        // the parameter) below 0.25 the request follows the limit.
        requests: {
          cpu: Token.asString(hcl`${cpuLimit} < 0.25 ? tostring(${cpuLimit}) : "250m"`),
          memory: "512Mi",
        },
        limits: {
          cpu: Token.asString(hcl`tostring(${cpuLimit})`),
          memory: Token.asString(
            hcl`format("%dGi", min(tonumber(${memory.value}), ${vars.maxMemory.numberValue}))`,
          ),
        },
      },
      volumeMounts: [
        { name: "persistent", mountPath: PERSISTENT_DIR, readOnly: false },
        {
          name: "packer-kubeconfig",
          mountPath: PACKER_KUBECONFIG_PATH,
          subPath: KUBECONFIG_SECRET_KEY,
          readOnly: true,
        },
      ],
    });
  }

  /** What the workspace page shows about the pod and the persistent volume. */
  private resourcesMetadata(
    { vars, ws, workspaceNamespace }: PackerBuilderWorkspace,
    size: PackerBuilderSize,
    { persistent }: WorkspaceClusterObjects,
    build: BuildNamespace,
    deployment: WorkspaceDeployment,
    arch: TemplateVariable,
  ): void {
    resourceMetadata(this, "pod", {
      count: ws.startCount,
      resourceId: Token.asString(hcl`${deployment.deployment.fqn}[0].id`),
      items: {
        Image: vars.image.stringValue,
        Namespace: workspaceNamespace,
        "Node placement": Token.asString(hcl`format("kubernetes.io/arch=%s", ${arch.stringValue})`),
        "Build namespace (Harvester)": build.name,
      },
    });
    resourceMetadata(this, "persistent_volume", {
      resourceId: persistent.claim.id,
      items: {
        "Disk size": `${size.diskSize.value}Gi`,
        Namespace: workspaceNamespace,
        "Mounted at": PERSISTENT_DIR,
      },
    });
  }
}

/** A namespace's metadata with the template's namespace label added (the policies select by it). */
function templateNamespaceMeta(meta: WorkspaceObjectMeta): WorkspaceObjectMeta {
  return {
    labels: { ...meta.labels, [TEMPLATE_NAMESPACE_LABEL.key]: TEMPLATE_NAMESPACE_LABEL.value },
    annotations: meta.annotations,
  };
}

/** The Harvester cluster's provider (alias `harvester`). */
type HarvesterProvider = ReturnType<typeof harvesterProvider>;

/** What every step of the template reads: the variables, the workspace and its names. */
interface PackerBuilderWorkspace {
  readonly vars: PackerBuilderVariables;
  readonly ws: WorkspaceData;
  /** `<ws>`: the workspace's key, its identities' name and its build VMs' label value. */
  readonly wsKey: string;
  /** The labels and annotations of one of the workspace's objects. */
  readonly meta: (component: string) => WorkspaceObjectMeta;
  /** Namespace of the workspace pods on the workspace cluster. */
  readonly workspaceNamespace: string;
}

/** The pod's size: the capped CPU limit and the memory and disk parameters. */
interface PackerBuilderSize {
  readonly cpuLimit: number;
  readonly memory: WorkspaceParameter;
  readonly diskSize: WorkspaceParameter;
}

/** The workspace's build namespace on Harvester. */
interface BuildNamespace {
  /** Whether the workspace has a namespace of its own (build_namespace_per_workspace). */
  readonly perWorkspace: IResolvable;
  /** That namespace, with a count of 1 when it has one. */
  readonly ownNamespace: WorkspaceNamespace["namespace"];
  /** The namespace builds run in: the own one, or the identity namespace. */
  readonly name: string;
}

/** The workspace's identity on Harvester and its session token. */
interface HarvesterIdentity {
  readonly identity: ScopedServiceAccount;
  readonly session: SessionToken;
}

/** What the pod uses on the workspace cluster. */
interface WorkspaceClusterObjects {
  readonly podIdentity: ScopedServiceAccount;
  readonly kubeconfig: KubeconfigSecret;
  readonly persistent: DataVolume;
}

/** Why a plain-http `ca_url` needs `ca_sha256` (plan-time precondition and synth-time rule). */
const CA_PIN_REQUIREMENT =
  "ca_url must be an https:// URL unless ca_sha256 pins the CA: over plain http anyone on the path could plant a root CA that the workspace, git and the agent would trust.";

/** A PEM certificate (one or more `BEGIN CERTIFICATE` blocks). */
const PEM_CERTIFICATE: Rule = {
  requirement: "a PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)",
  test: (v) =>
    typeof v === "string" &&
    /^\s*-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/.test(v),
  condition: (ref) =>
    hcl`can(regex("^\\s*-----BEGIN CERTIFICATE-----[\\s\\S]+-----END CERTIFICATE-----\\s*$", ${ref}))`,
};

/** `true` or `false`. */
const BOOLEAN: Rule = { requirement: "true or false", test: (v) => typeof v === "boolean" };

/** A list of {namespace, roleKind, roleName} objects (as an operator's settings give it). */
const ROLE_BINDING_LIST: Rule = nonEmptyListOf({
  requirement: "{namespace, roleKind, roleName} objects",
  test: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
});

/** Fails synth on props Kubernetes would refuse (or that would run the pod as root). */
function checkPackerBuilderProps(id: string, props: PackerBuilderTemplateProps): void {
  checkProp(id, "workspaceNamespace", props.workspaceNamespace, DNS_LABEL);
  checkProp(id, "identityNamespace", props.identityNamespace, DNS_LABEL);
  checkProp(id, "identityRoleBindings", props.identityRoleBindings, ROLE_BINDING_LIST);
  const identityNamespace = props.identityNamespace ?? "packer-dev";
  const documented = [identityNamespace, PUBLIC_IMAGES_NAMESPACE];
  const bound = new Map<string, number>();
  props.identityRoleBindings?.forEach((binding, i) => {
    const prop = `identityRoleBindings[${i}]`;
    for (const [field, value] of Object.entries(binding)) {
      checkProp(id, `${prop}.${field}`, value, {
        requirement: `a field of a binding (${IDENTITY_BINDING_FIELDS.join(", ")})`,
        test: () => IDENTITY_BINDING_FIELDS.includes(field),
      });
    }
    checkProp(id, `${prop}.namespace`, binding.namespace, DNS_LABEL);
    checkProp(id, `${prop}.roleKind`, binding.roleKind, oneOf(["Role", "ClusterRole"]));
    checkProp(id, `${prop}.roleName`, binding.roleName, RBAC_ROLE_NAME);
    checkProp(id, `${prop}.allowUnsafe`, binding.allowUnsafe, BOOLEAN);
    // The binding's name is the identity's name and the role's: one per role name and namespace.
    const key = `${binding.namespace}/${binding.roleName}`;
    const earlier = bound.get(key);
    checkProp(id, prop, binding, {
      requirement: `a role name not bound in ${binding.namespace} yet (identityRoleBindings[${earlier}] binds ${binding.roleName} there); bind a role name once per namespace`,
      test: () => earlier === undefined,
    });
    bound.set(key, i);
    if (binding.allowUnsafe === true) return;
    checkProp(id, prop, binding, {
      requirement:
        `a binding in ${documented.join(" or ")} (the namespaces the template documents) to a role other than ` +
        `the built-in ClusterRoles ${BROAD_CLUSTER_ROLES.join(", ")} and ${SYSTEM_CLUSTER_ROLE_PREFIX}*; set "allowUnsafe": true on the entry to bind it anyway`,
      test: () => documented.includes(binding.namespace) && !isBuiltInBroadClusterRole(binding),
    });
  });
  checkProp(id, "uid", props.uid, NON_ROOT_ID);
}

/** The template variables set per push (`coder templates push --var name=value`). */
class PackerBuilderVariables extends Construct {
  public readonly harvesterApiServer: TerraformVariable;
  public readonly harvesterCaCertificate: TerraformVariable;
  public readonly tokenHours: TerraformVariable;
  public readonly buildNamespacePerWorkspace: TerraformVariable;
  public readonly image: TerraformVariable;
  public readonly imagePullSecretName: TerraformVariable;
  public readonly caUrl: TerraformVariable;
  public readonly caSha256: TerraformVariable;
  public readonly repositoryUrl: TerraformVariable;
  public readonly packerPluginPath: TerraformVariable;
  public readonly packerPluginSource: TerraformVariable;
  public readonly maxCpu: TerraformVariable;
  public readonly maxMemory: TerraformVariable;

  // long: one declaration per template variable, in the order main.tf lists them
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stringVariable = (
      name: string,
      description: string,
      defaultValue?: string,
      rules: readonly Rule[] = [],
    ) =>
      new TemplateVariable(scope, name, {
        type: "string",
        default: defaultValue,
        description,
        nullable: false,
        rules,
      });
    this.harvesterApiServer = stringVariable(
      "harvester_api_server",
      "Harvester API server URL written into each workspace's kubeconfig, e.g. " +
        "https://harvester.example.com/k8s/clusters/local.",
      undefined,
      [HTTPS_URL],
    );
    this.harvesterCaCertificate = stringVariable(
      "harvester_ca_certificate",
      "CA certificate (PEM) of harvester_api_server, written into each workspace's kubeconfig; " +
        "empty verifies the server with the pod's trust store (with ca_url's CA).",
      "",
      [emptyOr(PEM_CERTIFICATE)],
    );
    this.tokenHours = new TemplateVariable(scope, "harvester_token_hours", {
      rules: [wholeNumberBetween(1, MAX_TOKEN_HOURS)],
      type: "number",
      default: DEFAULT_TOKEN_HOURS,
      description:
        "Hours each workspace's Harvester token lives. A token is minted at every start and revoked at stop; a workspace running longer renews it with a restart.",
    });
    this.buildNamespacePerWorkspace = new TemplateVariable(scope, "build_namespace_per_workspace", {
      type: "bool",
      default: false,
      nullable: false,
      description:
        "Give each workspace a build namespace of its own on Harvester (packer-<workspace id>, deleted with the workspace) instead of the shared identity namespace. See the README for the ClusterRoles and grants it needs.",
    });
    this.image = stringVariable(
      "image",
      "The packer-builder image (Packer, the Harvester plugin, kubectl, git, curl, bash).",
      undefined,
      [IMAGE_REFERENCE],
    );
    this.imagePullSecretName = stringVariable(
      "image_pull_secret_name",
      "Existing kubernetes.io/dockerconfigjson Secret in the workspace namespace for pulling the image; empty for anonymous pulls.",
      "",
      [emptyOr(DNS_SUBDOMAIN)],
    );
    this.caUrl = new TemplateVariable(scope, "ca_url", {
      type: "string",
      default: "",
      description:
        "URL of the organization CA (PEM) the workspace should trust: https://, or http:// with ca_sha256; empty keeps the image's trust store.",
      nullable: false,
      rules: [emptyOr(HTTP_URL)],
      crossRules: [
        {
          requirement:
            "an https:// URL unless ca_sha256 pins the CA (plain http could plant a root CA)",
          test: (value, defaultOf) =>
            value === "" ||
            (typeof value === "string" && value.startsWith("https://")) ||
            (typeof defaultOf("ca_sha256") === "string" && defaultOf("ca_sha256") !== ""),
        },
      ],
    });
    this.caSha256 = stringVariable(
      "ca_sha256",
      "SHA-256 (hex) the CA at ca_url must have; required when ca_url is plain http. Empty trusts what https delivers.",
      "",
      [emptyOr(SHA256_HEX)],
    );
    this.repositoryUrl = stringVariable(
      "repository_url",
      "The infrastructure repository cloned once into /persistent/ggl_core_infra (no credentials in the URL).",
      undefined,
      [GIT_URL_WITHOUT_PASSWORD],
    );
    this.packerPluginPath = stringVariable(
      "packer_plugin_path",
      "Path of the Harvester Packer plugin binary inside the image; empty skips the install.",
      "",
    );
    this.packerPluginSource = stringVariable(
      "packer_plugin_source",
      "The plugin's source address as in required_plugins of the .pkr.hcl files (needed with packer_plugin_path).",
      "",
    );
    this.maxCpu = new TemplateVariable(scope, "max_cpu", {
      rules: [POSITIVE_NUMBER],
      type: "number",
      default: 4,
      description: "Most CPU cores a workspace pod may use, whatever the CPU parameter says.",
    });
    this.maxMemory = new TemplateVariable(scope, "max_memory", {
      // A whole number: the limit is written as format("%dGi", …).
      rules: [POSITIVE_WHOLE_NUMBER],
      type: "number",
      default: 8,
      description:
        "Most memory in GiB a workspace pod may use, whatever the Memory parameter says.",
    });
  }
}
