import type { Construct } from "../lib/core/cdk";
import type { OperatorPresetRules } from "./operator-presets";
import { GIT_URL_WITHOUT_PASSWORD } from "../lib/core/validate";
import type { ProvisionerRequirement } from "./provisioner-tags";
import type { TemplateStack } from "../lib/constructs/template-stack";
import { DevcontainerTemplate } from "../templates/devcontainer";
import { KubernetesTemplate } from "../templates/kubernetes";
import {
  PackerBuilderTemplate,
  type PackerBuilderTemplateProps,
} from "../templates/packer-builder";
import {
  DEVCONTAINER_PROVISIONERS,
  HARVESTER_PROVISIONERS,
  WORKSPACE_CLUSTER_PROVISIONERS,
} from "./provisioner-requirements";

/** A template this project can synthesize: its stack id is its folder under templates/. */
export interface TemplateDefinition {
  readonly id: string;
  /**
   * Builds the template's stack. `settings` are the operator's synth-time settings
   * (coder-cdktf.jsonc `templates.<id>.settings`), already limited to {@link settings}; the
   * template checks their values like any props.
   */
  create(scope: Construct, settings?: Readonly<Record<string, unknown>>): TemplateStack;
  /** Props an operator may set under `settings`, with what each is. @default none */
  readonly settings?: Readonly<Record<string, string>>;
  /**
   * Where its Terraform must run: the static tags pushed with `--provisioner-tag`
   * (see docs/provisioners.md; an operator may replace them in coder-cdktf.jsonc).
   * Per-workspace tags are declared in the stack with WorkspaceTags (app/workspace-tags.ts).
   * @default untagged (generic provisioners only)
   */
  readonly provisioners?: ProvisionerRequirement;
  /**
   * What operator presets (coder-cdktf.jsonc `templates.<id>.presets`) must set beyond valid
   * parameter values. @default nothing more
   */
  readonly presetRules?: OperatorPresetRules;
}

/**
 * A registry entry whose id is written once: the stack is `new Stack(scope, id, settings)`
 * and, by TemplateStack's default, its source folder is `templates/<id>`.
 */
export function defineTemplate<Settings>(
  id: string,
  Stack: new (scope: Construct, id: string, settings?: Settings) => TemplateStack,
  options: Omit<TemplateDefinition, "id" | "create"> = {},
): TemplateDefinition {
  return {
    id,
    create: (scope, settings) => new Stack(scope, id, settings as Settings),
    ...options,
  };
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
    presetRules: {
      required: {
        repository:
          "a devcontainer preset is a repository to work on, and a prebuild must know what to build",
      },
      values: { repository: GIT_URL_WITHOUT_PASSWORD },
    },
  },
  {
    id: "packer-builder",
    create: (scope, settings) =>
      new PackerBuilderTemplate(scope, "packer-builder", settings as PackerBuilderTemplateProps),
    settings: {
      workspaceNamespace: 'namespace of the workspace pods (default "packer-builder")',
      identityNamespace: 'namespace of the per-workspace Harvester identity (default "packer-dev")',
      identityRoleBindings:
        "existing roles bound to that identity: a list of {namespace, roleKind (Role or ClusterRole), roleName}",
      uid: "user and group id of the workspace user in the image (default 1000)",
    },
    provisioners: HARVESTER_PROVISIONERS,
  },
];
