import {
  coderProvider,
  type Construct,
  devcontainerBuilderProvider,
  DevcontainerParameters,
  DevcontainerQuantityCaps,
  DevcontainerTemplateVariables,
  DevcontainerWorkspace,
  ResourcesMonitoringVariables,
  sizePresets,
  STANDARD_SIZE_PRESETS,
  TemplateStack,
  workspaceClusterProvider,
  WorkspaceData,
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

    // What the operator sets once per template version (`coder templates push --var`): the
    // namespace, the builder, git credentials, and the maxima a repository may ask for. Every
    // cap has a default, so a repository can never raise a quantity the operator did not allow.
    const variables = new DevcontainerTemplateVariables(this, "variables");
    const caps = new DevcontainerQuantityCaps(this, "quantity_caps");
    const monitoring = new ResourcesMonitoringVariables(this);

    // The providers: Coder, the cluster the pods run in (in-cluster unless use_kubeconfig),
    // and the builder service, which this template reads and never deploys.
    coderProvider(this);
    workspaceClusterProvider(this, variables.useKubeconfig);
    devcontainerBuilderProvider(this, variables.builderEndpoint);

    // The workspace and the user's choices. The size parameters get the standard presets, so
    // prebuilds and the create form offer the same sizes as the kubernetes template.
    const workspace = new WorkspaceData(this, "workspace");
    const parameters = new DevcontainerParameters(this, "parameters");
    sizePresets(this, {
      presets: STANDARD_SIZE_PRESETS,
      cpu: parameters.cpu,
      memory: parameters.memory,
      memoryUnit: "GiB",
    });

    // Everything the repository decides, each value checked against a rule before it reaches
    // the pod, a script, a label or a URL: the image build, the pod, the agent, its scripts and
    // apps, and the build log's warnings (lib/devcontainer/workspace.ts).
    new DevcontainerWorkspace(this, "devcontainer", {
      workspace,
      variables,
      caps,
      parameters,
      monitoring,
    });
  }
}
