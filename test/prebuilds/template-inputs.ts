/**
 * What a workspace of each template needs to plan and apply (variables, parameters a preset
 * would set, fixtures), shared by the prebuild claim and upgrade tests.
 */
import type { PlanOptions } from "@coder-cdktf/terraform-harness";
import {
  devcontainerFixtures,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES as DEVCONTAINER_VARIABLES,
} from "../templates/devcontainer/synthesized";
import {
  REQUIRED_VARIABLES as PACKER_BUILDER_VARIABLES,
  TOKEN_SECRET_FIXTURES,
} from "../templates/packer-builder/synthesized-template";

export interface TemplateCase {
  readonly id: string;
  /** What the preset and the template need, for both builds. */
  readonly options: PlanOptions;
}

export const TEMPLATE_INPUTS: readonly TemplateCase[] = [
  {
    id: "kubernetes",
    options: {
      variables: { namespace: "coder-workspaces" },
      parameters: { cpu: "4", memory: "4" },
    },
  },
  {
    id: "devcontainer",
    options: {
      variables: DEVCONTAINER_VARIABLES,
      parameters: { repository: REPOSITORY, branch: "main", cpu: "4", memory: "4" },
      fixtures: devcontainerFixtures(metadata()),
    },
  },
  {
    id: "packer-builder",
    options: {
      variables: PACKER_BUILDER_VARIABLES,
      parameters: { cpu: "2", memory: "4" },
      fixtures: { resources: TOKEN_SECRET_FIXTURES },
    },
  },
];
