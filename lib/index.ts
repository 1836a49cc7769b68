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

// cdktf, as templates use it (everything else of cdktf stays behind lib/core/cdk.ts).
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
} from "./core/cdk";

// Base: the template stack, expressions, checks, state moves, validation.
export * from "./constructs/template-stack";
export * from "./core/template-variable";
export * from "./core/hcl";
export * from "./core/escape";
export * from "./core/check-block";
export * from "./core/terraform-data";
export * from "./core/moved";
export * from "./core/validate";
export * from "./constructs/label-value";

// Workspace building blocks (L2).
export * from "./constructs/providers";
export * from "./constructs/workspace-data";
export * from "./constructs/workspace-parameter";
export * from "./constructs/workspace-agent";
export * from "./constructs/agent-metadata";
export * from "./constructs/workspace-labels";
export * from "./constructs/data-volume";
export * from "./constructs/workspace-deployment";
export * from "./constructs/registry-module";
export * from "./constructs/workspace-app";
export * from "./constructs/workspace-script";
export * from "./constructs/ide-modules";
export * from "./constructs/browser-ides";
export * from "./constructs/ai-task";
export * from "./constructs/resource-metadata";
export * from "./constructs/resources-monitoring";
export * from "./constructs/workspace-arch";
export * from "./core/embedded-script";
export * from "./core/shipped-file";
export * from "./constructs/scoped-service-account";
export * from "./constructs/kubeconfig-secret";
export * from "./constructs/harvester-provider";
export * from "./constructs/size-presets";
export * from "./constructs/workspace-preset";

// The devcontainer mapping: apply-time decisions from a devcontainer.json.
export * from "./devcontainer/agent";
export * from "./devcontainer/agent-env";
export * from "./devcontainer/apps";
export * from "./devcontainer/docker-warnings";
export * from "./devcontainer/git-credentials";
export * from "./devcontainer/kubernetes-customizations";
export * from "./devcontainer/kubernetes-quantities";
export * from "./devcontainer/local-env";
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
export * from "./devcontainer/wait-for";
export * from "./devcontainer/warnings";
export * from "./devcontainer/workspace-folder";
export * from "./devcontainer/workspace-pod";
export * from "./devcontainer/workspace-user";

// Policies a construct declares itself against (what a limits expression holds).
export { declareLimits } from "./policy/policy-rule";
