/**
 * The operator's maxima for the quantities a repository can raise beyond CPU and memory
 * (issue 32.3): the data volume, the container's ephemeral storage, and extended resources
 * (GPUs and other device plugins) by name. `max_cpu` and `max_memory` are declared with the
 * other template variables (lib/devcontainer/template-variables.ts); DevcontainerSizing applies all.
 */
import { Construct } from "../core/cdk";
import { hcl } from "../core/expr";
import { TemplateVariable } from "../core/template-variable";
import { POSITIVE_NUMBER, type Rule } from "../core/validate";
import {
  EXTENDED_RESOURCE_LONG_PREFIX_PATTERN,
  EXTENDED_RESOURCE_REQUESTS_PREFIX,
  isValidResourceName,
  KUBERNETES_IO_RESOURCE_PATTERN,
  RESOURCE_NAME_PATTERN,
} from "./kubernetes-quantities";

/**
 * `max_disk` default, GiB: the largest storage GitHub Codespaces offers a machine, so the
 * repositories written for it keep their disk.
 */
export const DEFAULT_MAX_DISK_GIB = 128;

/** `max_ephemeral_storage` default, GiB: as much as `max_memory`'s default. */
export const DEFAULT_MAX_EPHEMERAL_STORAGE_GIB = 32;

/**
 * `max_extended_resources` default: one NVIDIA GPU, the resource `hostRequirements.gpu`
 * becomes, and nothing else. Kubernetes reserves an extended resource's limit (request and
 * limit are one number for them), so every name a repository may ask for is listed with its
 * most; an AMD or Intel cluster lists its own (`{"amd.com/gpu" = 1}`).
 */
export const DEFAULT_MAX_EXTENDED_RESOURCES: Readonly<Record<string, number>> = {
  "nvidia.com/gpu": 1,
};

/** `max_extended_resources`: extended resource names (with a `/`) to whole numbers of at least 1. */
export const EXTENDED_RESOURCE_MAXIMA: Rule = {
  requirement:
    'a map of extended resource names (a domain, "/", a name, e.g. "nvidia.com/gpu") to whole numbers of at least 1',
  test: (value) =>
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.entries(value).every(
      ([name, most]) =>
        name.includes("/") &&
        isValidResourceName(name) &&
        Number.isInteger(most) &&
        (most as number) >= 1,
    ),
  condition: (ref) =>
    hcl`try(alltrue([for name, most in ${ref} : strcontains(name, "/") && can(regex(${RESOURCE_NAME_PATTERN}, name))
      && !strcontains(name, "..") && !can(regex(${KUBERNETES_IO_RESOURCE_PATTERN}, name))
      && !startswith(name, ${EXTENDED_RESOURCE_REQUESTS_PREFIX}) && !can(regex(${EXTENDED_RESOURCE_LONG_PREFIX_PATTERN}, name))
      && floor(most) == most && most >= 1]), false)`,
};

/** `max_disk`, `max_ephemeral_storage` and `max_extended_resources`. */
export class DevcontainerQuantityCaps extends Construct {
  /** `max_disk` (number, GiB): the most a repository's storage may raise the data volume to. */
  public readonly maxDisk: TemplateVariable;
  /** `max_ephemeral_storage` (number, GiB): the most ephemeral-storage request and limit. */
  public readonly maxEphemeralStorage: TemplateVariable;
  /** `max_extended_resources` (map(number)): the extended resources a repository may ask for. */
  public readonly maxExtendedResources: TemplateVariable;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.maxDisk = new TemplateVariable(this, "max_disk", {
      rules: [POSITIVE_NUMBER],
      type: "number",
      default: DEFAULT_MAX_DISK_GIB,
      description:
        "Most GiB a repository may raise the workspace's disk to (customizations.kubernetes " +
        "storage or hostRequirements.storage); the Disk size parameter is the user's own. An " +
        "existing disk never shrinks: its size is fixed when the workspace is created.",
    });
    this.maxEphemeralStorage = new TemplateVariable(this, "max_ephemeral_storage", {
      rules: [POSITIVE_NUMBER],
      type: "number",
      default: DEFAULT_MAX_EPHEMERAL_STORAGE_GIB,
      description:
        "Most GiB of ephemeral-storage a repository may request or set as a limit " +
        "(customizations.kubernetes resources).",
    });
    this.maxExtendedResources = new TemplateVariable(this, "max_extended_resources", {
      rules: [EXTENDED_RESOURCE_MAXIMA],
      type: "map(number)",
      default: { ...DEFAULT_MAX_EXTENDED_RESOURCES },
      nullable: false,
      description:
        "The extended resources (GPUs, device plugins) a repository may ask for, each with the " +
        "most a workspace gets; a name not listed is dropped with a warning. Kubernetes " +
        "reserves an extended resource's limit.",
    });
  }
}
