import {
  AgentTokenSecret,
  agentContainer,
  archNodeSelector,
  BrowserIdes,
  checkProp,
  coderProvider,
  type Construct,
  DataVolume,
  DNS_LABEL,
  hcl,
  IMAGE_REFERENCE,
  resourceMetadata,
  ResourcesMonitoringVariables,
  sizePresets,
  STANDARD_SIZE_PRESETS,
  standardMetadata,
  TemplateStack,
  TemplateVariable,
  UserConfigModules,
  Token,
  useKubeconfigVariable,
  WORKSPACE_POD_ANTI_AFFINITY,
  WORKSPACE_SIZES,
  WorkspaceAgent,
  workspaceArchVariable,
  workspaceClusterProvider,
  WorkspaceData,
  WorkspaceDeployment,
  workspaceObjectMeta,
  WorkspaceParameter,
} from "../../lib";

/** Options a deployment may set for this template (operator configuration). */
export interface KubernetesTemplateProps {
  /**
   * Workspace image: a reference such as `registry.example.com/team/image:tag`.
   * @default "codercom/enterprise-base:ubuntu"
   */
  readonly image?: string;
}

/** The image's user; its home is the data volume. */
const WORKSPACE_UID = 1000;
/** The user's home, on the home volume: where the IDEs open and what the disk alert watches. */
const HOME_DIR = "/home/coder";

/**
 * `kubernetes`: Coder's classic Kubernetes workspace. One pod running the
 * agent as a non-root user, the home folder on a PVC that survives stops,
 * CPU and memory chosen by the user.
 */
export class KubernetesTemplate extends TemplateStack {
  constructor(scope: Construct, id: string, props: KubernetesTemplateProps = {}) {
    super(scope, id, {
      sourceDir: "templates/kubernetes",
      frontMatter: {
        displayName: "Kubernetes",
        description: "A container workspace on Kubernetes with a persistent home volume",
        icon: "/icon/k8s.png",
      },
    });
    checkProp(id, "image", props.image, IMAGE_REFERENCE);

    const vars = this.templateVariables();
    const ws = new WorkspaceData(this, "workspace");
    const size = this.sizeParameters();
    const agent = this.agentAndIdes(ws, vars);
    const home = new DataVolume(this, "home", {
      name: `coder-${ws.id}-home`,
      namespace: vars.namespace.stringValue,
      size: `${size.homeDiskSize.value}Gi`,
      meta: workspaceObjectMeta(ws, "pvc"),
    });
    const image = props.image ?? "codercom/enterprise-base:ubuntu";
    const deployment = this.workspacePod(ws, vars, size, agent, home, image);
    this.resourcesMetadata(ws, vars, size, home, deployment, image);
  }

  /** The template variables, then the providers (one of which reads use_kubeconfig). */
  private templateVariables(): KubernetesVariables {
    const useKubeconfig = useKubeconfigVariable(this);
    const namespace = new TemplateVariable(this, "namespace", {
      rules: [DNS_LABEL],
      type: "string",
      description: "Existing Kubernetes namespace for the workspaces' pods and volumes.",
    });
    const arch = workspaceArchVariable(this);
    const monitoring = new ResourcesMonitoringVariables(this);
    const jetbrains = new TemplateVariable(this, "jetbrains", {
      type: "bool",
      default: false,
      nullable: false,
      description:
        "Offer JetBrains IDEs (through the JetBrains Toolbox on the user's machine); users pick theirs in the workspace form. The image must run the IDE backend (glibc Linux, as the default image).",
    });
    coderProvider(this);
    workspaceClusterProvider(this, useKubeconfig);
    return { namespace, arch, monitoring, jetbrains };
  }

  /** The CPU, memory and home disk parameters, and the size presets over CPU and memory. */
  private sizeParameters(): KubernetesSize {
    const cpu = new WorkspaceParameter(this, "cpu", {
      order: 1,
      displayName: "CPU",
      description: "CPU cores the workspace may use.",
      default: WORKSPACE_SIZES[0],
      icon: "/icon/memory.svg",
      mutable: true,
      formType: "radio",
      options: WORKSPACE_SIZES.map((n) => ({ name: `${n} Cores`, value: n })),
    });
    const memory = new WorkspaceParameter(this, "memory", {
      order: 2,
      displayName: "Memory",
      description: "Memory the workspace may use, in GB.",
      default: WORKSPACE_SIZES[0],
      icon: "/icon/memory.svg",
      mutable: true,
      formType: "radio",
      options: WORKSPACE_SIZES.map((n) => ({ name: `${n} GB`, value: n })),
    });
    const homeDiskSize = new WorkspaceParameter(this, "home_disk_size", {
      order: 3,
      displayName: "Home disk size",
      description: "Size of the home volume in GB. It is fixed when the workspace is created.",
      type: "number",
      default: "10",
      icon: "/emojis/1f4be.png",
      mutable: false,
      validation: {
        min: 1,
        max: 99999,
        error: "Enter a whole number of GB from {min} to {max}; the size cannot change later.",
      },
      styling: { placeholder: "GB, e.g. 10" },
    });

    sizePresets(this, { presets: STANDARD_SIZE_PRESETS, cpu, memory, memoryUnit: "GB" });
    return { cpu, memory, homeDiskSize };
  }

  /** The agent, the browser IDEs and the user's dotfiles and git identity. */
  private agentAndIdes(ws: WorkspaceData, vars: KubernetesVariables): WorkspaceAgent {
    const agent = new WorkspaceAgent(this, "agent", {
      arch: vars.arch.stringValue,
      metadata: standardMetadata("Home Disk"),
      resourcesMonitoring: vars.monitoring.monitoring(HOME_DIR),
      // Kept at "all": users clone and push with Coder's external auth and git SSH key, which
      // the agent fetches for them; "no_user_data" would block both.
      apiKeyScope: "all",
    });
    new BrowserIdes(this, "ides", {
      startCount: ws.startCount,
      agentId: agent.id,
      folder: HOME_DIR,
      jetbrains: vars.jetbrains.booleanExpr,
      jetbrainsParameterOrder: 4,
    });
    // The user's dotfiles and git identity; not in an unclaimed prebuild (it is not theirs yet).
    new UserConfigModules(this, "user_config", {
      agentId: agent.id,
      startCount: ws.claimedStartCount,
      parameterOrder: 10,
    });
    return agent;
  }

  /** The workspace's Deployment: one pod, the agent's container as the image's user. */
  private workspacePod(
    ws: WorkspaceData,
    vars: KubernetesVariables,
    size: KubernetesSize,
    agent: WorkspaceAgent,
    home: DataVolume,
    image: string,
  ): WorkspaceDeployment {
    const podMeta = workspaceObjectMeta(ws, "workspace");
    // CODER_AGENT_TOKEN from a Secret, not a literal in the pod template (issue 43.2).
    const tokenSecret = new AgentTokenSecret(this, "agent_token_secret", {
      workspace: ws,
      agent,
      namespace: vars.namespace.stringValue,
      meta: workspaceObjectMeta(ws, "agent-token"),
    });
    return new WorkspaceDeployment(this, "deployment", {
      workspace: ws,
      name: `coder-${ws.id}`,
      namespace: vars.namespace.stringValue,
      meta: podMeta,
      dependsOn: [home.claim],
      pod: {
        securityContext: {
          runAsUser: String(WORKSPACE_UID),
          runAsGroup: String(WORKSPACE_UID),
          fsGroup: String(WORKSPACE_UID),
          runAsNonRoot: true,
        },
        container: [
          agentContainer({
            name: "dev",
            image,
            agent,
            tokenSecret,
            resources: {
              requests: { cpu: "250m", memory: "512Mi" },
              limits: { cpu: size.cpu.value, memory: `${size.memory.value}Gi` },
            },
            volumeMounts: [{ name: "home", mountPath: HOME_DIR, readOnly: false }],
          }),
        ],
        volume: [
          { name: "home", persistentVolumeClaim: { claimName: home.claimName, readOnly: false } },
        ],
        nodeSelector: archNodeSelector(vars.arch.stringValue),
        affinity: WORKSPACE_POD_ANTI_AFFINITY,
      },
    });
  }

  /** What the workspace page shows about the pod and the home volume. */
  private resourcesMetadata(
    ws: WorkspaceData,
    vars: KubernetesVariables,
    size: KubernetesSize,
    home: DataVolume,
    deployment: WorkspaceDeployment,
    image: string,
  ): void {
    resourceMetadata(this, "pod", {
      count: ws.startCount,
      resourceId: Token.asString(hcl`${deployment.deployment.fqn}[0].id`),
      items: {
        Image: image,
        Namespace: vars.namespace.stringValue,
        "Node placement": Token.asString(
          hcl`format("kubernetes.io/arch=%s", ${vars.arch.stringValue})`,
        ),
        "CPU / memory limit": Token.asString(
          hcl`format("%s cores / %s GB", ${size.cpu.value}, ${size.memory.value})`,
        ),
      },
    });
    resourceMetadata(this, "home_volume", {
      resourceId: home.claim.id,
      items: {
        "Home disk": `${size.homeDiskSize.value}Gi`,
        Namespace: vars.namespace.stringValue,
        "Mounted at": HOME_DIR,
      },
    });
  }
}

/** The template variables the steps read. */
interface KubernetesVariables {
  readonly namespace: TemplateVariable;
  readonly arch: TemplateVariable;
  readonly monitoring: ResourcesMonitoringVariables;
  readonly jetbrains: TemplateVariable;
}

/** The parameters that size the workspace. */
interface KubernetesSize {
  readonly cpu: WorkspaceParameter;
  readonly memory: WorkspaceParameter;
  readonly homeDiskSize: WorkspaceParameter;
}
