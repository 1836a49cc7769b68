import {
  agentContainer,
  checkProp,
  coderProvider,
  type Construct,
  DataVolume,
  DNS_LABEL,
  IMAGE_REFERENCE,
  sizePresets,
  STANDARD_SIZE_PRESETS,
  standardMetadata,
  TemplateStack,
  TemplateVariable,
  useKubeconfigVariable,
  WORKSPACE_POD_ANTI_AFFINITY,
  WORKSPACE_SIZES,
  WorkspaceAgent,
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

    const useKubeconfig = useKubeconfigVariable(this);
    const namespace = new TemplateVariable(this, "namespace", {
      rules: [DNS_LABEL],
      type: "string",
      description: "Existing Kubernetes namespace for the workspaces' pods and volumes.",
    });
    coderProvider(this);
    workspaceClusterProvider(this, useKubeconfig);

    const ws = new WorkspaceData(this, "workspace");

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
      validation: { min: 1, max: 99999 },
    });

    sizePresets(this, { presets: STANDARD_SIZE_PRESETS, cpu, memory, memoryUnit: "GB" });

    const agent = new WorkspaceAgent(this, "agent", { metadata: standardMetadata("Home Disk") });

    const home = new DataVolume(this, "home", {
      name: `coder-${ws.id}-home`,
      namespace: namespace.stringValue,
      size: `${homeDiskSize.value}Gi`,
      meta: workspaceObjectMeta(ws, "pvc"),
    });

    const podMeta = workspaceObjectMeta(ws, "workspace");
    new WorkspaceDeployment(this, "deployment", {
      workspace: ws,
      name: `coder-${ws.id}`,
      namespace: namespace.stringValue,
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
            image: props.image ?? "codercom/enterprise-base:ubuntu",
            agent,
            resources: {
              requests: { cpu: "250m", memory: "512Mi" },
              limits: { cpu: cpu.value, memory: `${memory.value}Gi` },
            },
            volumeMounts: [{ name: "home", mountPath: "/home/coder", readOnly: false }],
          }),
        ],
        volume: [
          { name: "home", persistentVolumeClaim: { claimName: home.claimName, readOnly: false } },
        ],
        affinity: WORKSPACE_POD_ANTI_AFFINITY,
      },
    });
  }
}
