/**
 * The public API of coder-cdktf: everything a template may use, and nothing else. Templates
 * (the project's and a platform team's own) import from here, never from a module path:
 *
 *     import { TemplateStack, WorkspaceAgent, WorkspaceDeployment } from "../../lib";
 *
 * What is not exported here is internal (the HCL writer, synth's file layout, the operator
 * configuration, push tooling, doc generators; docs/lib-reference.md lists them) and may change
 * without notice. Generated reference: docs/api/ (`npm run docs`).
 *
 * @packageDocumentation
 */

// cdktf, as templates use it (everything else of cdktf stays behind lib/cdk.ts).
export {
  Construct,
  Fn,
  Token,
  TerraformIterator,
  TerraformLocal,
  TerraformOutput,
  TerraformVariable,
  type IConstruct,
  type IResolvable,
} from "./cdk";

// Base: the template stack, expressions, checks, state moves, validation.
export * from "./template-stack";
export * from "./template-variable";
export * from "./hcl";
export * from "./escape";
export * from "./check-block";
export * from "./terraform-data";
export * from "./moved";
export * from "./validate";
export * from "./label-value";

// Workspace building blocks (L2).
export * from "./providers";
export * from "./workspace-data";
export * from "./workspace-parameter";
export * from "./workspace-agent";
export * from "./agent-metadata";
export * from "./workspace-labels";
export * from "./data-volume";
export * from "./workspace-deployment";
export * from "./registry-module";
export * from "./workspace-app";
export * from "./workspace-script";
export * from "./ide-modules";
export * from "./browser-ides";
export * from "./ai-task";
export * from "./resource-metadata";
export * from "./resources-monitoring";
export * from "./workspace-arch";
export * from "./embedded-script";
export * from "./shipped-file";
export * from "./scoped-service-account";
export * from "./kubeconfig-secret";
export * from "./harvester-provider";
export * from "./size-presets";
export * from "./workspace-preset";

// The devcontainer mapping: apply-time decisions from a devcontainer.json.
export * from "./devcontainer/agent";
export * from "./devcontainer/agent-env";
export * from "./devcontainer/apps";
export * from "./devcontainer/git-credentials";
export * from "./devcontainer/kubernetes-customizations";
export * from "./devcontainer/kubernetes-quantities";
export * from "./devcontainer/mounts";
export * from "./devcontainer/named-locals";
export * from "./devcontainer/parameters";
export * from "./devcontainer/placement";
export * from "./devcontainer/repository-values";
export * from "./devcontainer/runtime";
export * from "./devcontainer/scripts";
export * from "./devcontainer/sizing";
export * from "./devcontainer/source";
export * from "./devcontainer/variables";
export * from "./devcontainer/warnings";
export * from "./devcontainer/workspace-folder";
export * from "./devcontainer/workspace-pod";
export * from "./devcontainer/workspace-user";

// Policies a construct declares itself against (what a limits expression holds).
export { declareLimits } from "./policy/policy-rule";
