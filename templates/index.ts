import type { Construct } from "../lib/cdk";
import type { ProvisionerRequirement } from "../lib/provisioner-tags";
import type { TemplateStack } from "../lib/template-stack";
import { DevcontainerTemplate } from "./devcontainer";
import { KubernetesTemplate } from "./kubernetes";
import { PackerBuilderTemplate } from "./packer-builder";
import {
  DEVCONTAINER_PROVISIONERS,
  HARVESTER_PROVISIONERS,
  WORKSPACE_CLUSTER_PROVISIONERS,
} from "./provisioner-requirements";

/** A template this project can synthesize: its stack id is its folder under templates/. */
export interface TemplateDefinition {
  readonly id: string;
  create(scope: Construct): TemplateStack;
  /**
   * Where its Terraform must run: the static tags pushed with `--provisioner-tag`
   * (see docs/provisioners.md; an operator may replace them in coder-cdktf.jsonc).
   * Per-workspace tags are declared in the stack with WorkspaceTags (lib/workspace-tags.ts).
   * @default untagged (generic provisioners only)
   */
  readonly provisioners?: ProvisionerRequirement;
}

/** Every template, in the order they are synthesized. */
export const TEMPLATES: readonly TemplateDefinition[] = [
  {
    id: "kubernetes",
    create: (scope) => new KubernetesTemplate(scope, "kubernetes"),
    provisioners: WORKSPACE_CLUSTER_PROVISIONERS,
  },
  {
    id: "devcontainer",
    create: (scope) => new DevcontainerTemplate(scope, "devcontainer"),
    provisioners: DEVCONTAINER_PROVISIONERS,
  },
  {
    id: "packer-builder",
    create: (scope) => new PackerBuilderTemplate(scope, "packer-builder"),
    provisioners: HARVESTER_PROVISIONERS,
  },
];
