/**
 * The public API of coder-cdktf: everything a template may use, and nothing else. Templates
 * (the project's and a platform team's own) import from here, never from a module path:
 *
 *     import { TemplateStack, WorkspaceAgent, WorkspaceDeployment } from "../../lib";
 *
 * Every export is named: what the templates use, and the documented building blocks with their
 * props. Constants and helpers only the library uses stay in their modules. What is not
 * exported here is internal (the HCL writer, synth's file layout, the operator configuration,
 * push tooling, doc generators; docs/lib-reference.md lists them) and may change without
 * notice. The contract: docs/api-report.md (`npm run api:update`, checked by a test);
 * generated reference, one page per module: docs/api/ (`npm run docs`).
 *
 * @packageDocumentation
 */

// cdktf, as templates use it (everything else of cdktf stays behind lib/core/cdk.ts).
export {
  Construct,
  Token,
  TerraformIterator,
  TerraformVariable,
  type IConstruct,
  type IResolvable,
} from "./core/cdk";

// Base: the template stack, expressions, checks, state moves, validation.
export {
  type TemplateFrontMatter,
  TemplateStack,
  type TemplateStackProps,
} from "./constructs/template-stack";
export {
  type CrossVariableRule,
  TemplateVariable,
  type TemplateVariableConfig,
} from "./core/template-variable";
export { Expr, hcl, type HclValue } from "./core/expr";

export { MovedBlock, type MovedBlockProps, movedFrom } from "./core/moved";
export { NamedLocals } from "./core/named-locals";
export {
  checkProp,
  DNS_LABEL,
  DNS_SUBDOMAIN,
  emptyOr,
  GIT_URL_WITHOUT_PASSWORD,
  HTTP_URL,
  HTTPS_URL,
  IMAGE_REFERENCE,
  NON_ROOT_ID,
  nonEmptyListOf,
  oneOf,
  POSITIVE_NUMBER,
  POSITIVE_WHOLE_NUMBER,
  RBAC_ROLE_NAME,
  type Rule,
  SHA256_HEX,
  wholeNumberBetween,
} from "./core/validate";
export { sanitizedLabelValue } from "./constructs/label-value";

// Workspace building blocks (L2).
export {
  coderProvider,
  useKubeconfigVariable,
  workspaceClusterProvider,
} from "./constructs/providers";
export { WorkspaceData } from "./constructs/workspace-data";
export {
  type ParameterStyling,
  type ParameterType,
  WorkspaceParameter,
  type WorkspaceParameterProps,
} from "./constructs/workspace-parameter";
export { WorkspaceAgent, type WorkspaceAgentProps } from "./constructs/workspace-agent";
export { cpuUsage, diskUsage, item, ramUsage, standardMetadata } from "./constructs/agent-metadata";
export { workspaceObjectMeta, type WorkspaceObjectMeta } from "./constructs/workspace-labels";
export { DataVolume, type DataVolumeProps } from "./constructs/data-volume";
export {
  AgentTokenSecret,
  type AgentTokenSecretProps,
  type AgentTokenSecretRef,
} from "./constructs/agent-token-secret";
export {
  agentContainer,
  type AgentContainerProps,
  WORKSPACE_POD_ANTI_AFFINITY,
  WorkspaceDeployment,
  type WorkspaceDeploymentProps,
  type WorkspacePrecondition,
  type WorkspaceToleration,
} from "./constructs/workspace-deployment";

export {
  type AppHealthcheck,
  type AppShare,
  WorkspaceApp,
  type WorkspaceAppProps,
} from "./constructs/workspace-app";
export { WorkspaceScript, type WorkspaceScriptProps } from "./constructs/workspace-script";
export {
  CodeServer,
  type CodeServerProps,
  type IdeModule,
  type IdeModuleProps,
  JetBrainsGateway,
  type JetBrainsGatewayProps,
  VscodeDesktop,
  VscodeWeb,
  type VscodeWebProps,
} from "./constructs/ide-modules";
export { BrowserIdes, type BrowserIdesProps } from "./constructs/browser-ides";
export { AgentSkill, type AgentSkillProps } from "./constructs/agent-skill";
export { ClaudeCode, type ClaudeCodeProps, ClaudeCodeVariables } from "./constructs/claude-code";
export { RegistryModule, type RegistryModuleProps } from "./constructs/registry-module";
export { UserConfigModules, type UserConfigModulesProps } from "./constructs/user-config-modules";
export { resourceMetadata, type ResourceMetadataProps } from "./constructs/resource-metadata";
export { ResourcesMonitoringVariables } from "./constructs/resources-monitoring";
export { archNodeSelector, workspaceArchVariable } from "./constructs/workspace-arch";
export {
  embeddedScript,
  type ShellAssignment,
  type ShellValueEncoding,
} from "./core/embedded-script";

export {
  type RoleBindingTarget,
  type ScopedRoleBinding,
  ScopedServiceAccount,
  type ScopedServiceAccountProps,
} from "./constructs/scoped-service-account";
export { SessionToken, type SessionTokenProps } from "./constructs/session-token";
export { WorkspaceNamespace, type WorkspaceNamespaceProps } from "./constructs/workspace-namespace";
export {
  KUBECONFIG_SECRET_KEY,
  KubeconfigSecret,
  type KubeconfigSecretProps,
} from "./constructs/kubeconfig-secret";
export {
  harvesterKubeconfigPathVariable,
  harvesterProvider,
} from "./constructs/harvester-provider";
export {
  type SizePreset,
  sizePresets,
  type SizePresetsProps,
  STANDARD_SIZE_PRESETS,
  WORKSPACE_SIZES,
} from "./constructs/size-presets";
export {
  type PresetPrebuilds,
  WorkspacePreset,
  type WorkspacePresetProps,
} from "./constructs/workspace-preset";

// The devcontainer workspace: the pattern and the template inputs it is composed from.
export { devcontainerBuilderProvider } from "./devcontainer/source";
export { DevcontainerParameters } from "./devcontainer/parameters";
export { DevcontainerQuantityCaps } from "./devcontainer/quantity-caps";
export { DevcontainerTemplateVariables } from "./devcontainer/template-variables";
export { DevcontainerWorkspace, type DevcontainerWorkspaceProps } from "./devcontainer/workspace";
