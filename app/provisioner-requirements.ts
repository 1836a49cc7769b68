import type { ProvisionerRequirement } from "./provisioner-tags";

/**
 * Where each kind of template has to run, referenced from the registry
 * (app/registry.ts) so that push, docs/provisioners.md and the operator
 * config start from the same values. An operator may replace the tags per
 * template in coder-cdktf.jsonc.
 */

/**
 * Untagged: any generic provisioner (coderd's built-in ones, or external ones without
 * tags) whose service account may manage pods, PVCs and secrets in the workspace
 * namespace. This keeps a fresh deployment working with no provisioner setup at all.
 */
export const WORKSPACE_CLUSTER_PROVISIONERS: ProvisionerRequirement = {
  tags: {},
  reason:
    "Creates its pods, volumes and secrets in the workspace cluster with the provisioner's in-cluster " +
    "service account (or ~/.kube/config when use_kubeconfig is true), which every provisioner on " +
    "that cluster, including coderd's built-in ones, has.",
};

/**
 * Untagged like {@link WORKSPACE_CLUSTER_PROVISIONERS}; the provisioner must also reach the
 * devcontainer-builder service, which an in-cluster one does through its service DNS name.
 */
export const DEVCONTAINER_PROVISIONERS: ProvisionerRequirement = {
  tags: {},
  reason:
    "Creates its pods, volumes and secrets in the workspace cluster with the provisioner's in-cluster " +
    "service account (or ~/.kube/config when use_kubeconfig is true), and calls the devcontainer-builder " +
    "service at var.devcontainer_builder_endpoint during plan and apply. Any provisioner on the " +
    "workspace cluster, coderd's built-in ones included, reaches both; one elsewhere needs a route to " +
    "that endpoint.",
};

/**
 * `cluster=harvester`: the packer-builder template also manages a per-workspace identity
 * on the parent Harvester cluster through a kubeconfig file that only some provisioners
 * have mounted (/kubeconfig.yaml). Routing by tag keeps that admin credential out of
 * template variables, plans and logs.
 */
export const HARVESTER_PROVISIONERS: ProvisionerRequirement = {
  tags: { cluster: "harvester" },
  reason:
    "Also creates a per-workspace service account, role bindings and token secret on the parent " +
    "Harvester cluster through the kubeconfig file at /kubeconfig.yaml (the variable " +
    "harvester_kubeconfig_path). Only provisioners on the workspace cluster that have that file " +
    "mounted may run it; give exactly those the tag cluster=harvester.",
  files: [
    {
      path: "/kubeconfig.yaml",
      holds:
        "a kubeconfig for the parent Harvester cluster (see the packer-builder guide for its rights)",
    },
  ],
};
