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
export { hcl, HclExpression, hclRaw, hclString, type HclValue } from "./core/hcl";
export { escapeTemplateLiteral } from "./core/escape";
export { type CheckAssertion, CheckBlock, type CheckBlockProps } from "./core/check-block";
export { TerraformData, type TerraformDataConfig } from "./core/terraform-data";
export { MovedBlock, type MovedBlockProps, movedFrom } from "./core/moved";
export {
  ACCESS_MODES,
  checkConstructProp,
  checkProp,
  CODER_PARAMETER_NAME,
  CODER_TEMPLATE_NAME,
  DNS_LABEL,
  DNS_SUBDOMAIN,
  emptyOr,
  GIT_URL_WITHOUT_PASSWORD,
  HTTP_URL,
  HTTPS_OR_IN_CLUSTER_HTTP_URL,
  HTTPS_URL,
  IMAGE_REFERENCE,
  InvalidPropError,
  LABEL_VALUE,
  NON_EMPTY_STRING,
  NON_ROOT_ID,
  nonEmptyListOf,
  oneOf,
  patternRule,
  POSITIVE_NUMBER,
  POSITIVE_WHOLE_NUMBER,
  QUANTITY,
  RBAC_ROLE_NAME,
  type Rule,
  SHA256_HEX,
  TERRAFORM_NAME,
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
export {
  cpuUsage,
  diskUsage,
  hostCpuUsage,
  hostLoadAverage,
  hostMemoryUsage,
  item,
  ramUsage,
  standardMetadata,
} from "./constructs/agent-metadata";
export { workspaceObjectMeta, type WorkspaceObjectMeta } from "./constructs/workspace-labels";
export { DataVolume, type DataVolumeProps } from "./constructs/data-volume";
export {
  AGENT_TOKEN_SECRET_KEY,
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
export { RegistryModule, type RegistryModuleProps } from "./constructs/registry-module";
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
  IDE_MODULES,
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
export {
  ClaudeCode,
  type ClaudeCodeAuth,
  type ClaudeCodeProps,
  ClaudeCodeVariables,
} from "./constructs/claude-code";
export { UserConfigModules, type UserConfigModulesProps } from "./constructs/user-config-modules";
export { resourceMetadata, type ResourceMetadataProps } from "./constructs/resource-metadata";
export { ResourcesMonitoringVariables } from "./constructs/resources-monitoring";
export { archNodeSelector, workspaceArchVariable } from "./constructs/workspace-arch";
export {
  embeddedScript,
  type ShellAssignment,
  type ShellValueEncoding,
} from "./core/embedded-script";
export { ShippedFile, type ShippedFileProps } from "./core/shipped-file";
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

// The devcontainer mapping: apply-time decisions from a devcontainer.json.
export { DevcontainerAgent, type DevcontainerAgentProps } from "./devcontainer/agent";
export { DevcontainerAgentEnv, type DevcontainerAgentEnvProps } from "./devcontainer/agent-env";
export {
  DevcontainerApps,
  type DevcontainerAppsProps,
  portSlotWarnings,
} from "./devcontainer/apps";
export {
  DevcontainerDockerWarnings,
  type DevcontainerDockerWarningsProps,
} from "./devcontainer/docker-warnings";
export {
  DevcontainerGitCredentials,
  type DevcontainerGitCredentialsProps,
} from "./devcontainer/git-credentials";
export {
  DevcontainerKubernetesCustomizations,
  type DevcontainerKubernetesCustomizationsProps,
} from "./devcontainer/kubernetes-customizations";
export { DevcontainerLocalEnv, type DevcontainerLocalEnvProps } from "./devcontainer/local-env";
export {
  DevcontainerFeatureReport,
  type DevcontainerFeatureReportProps,
} from "./devcontainer/feature-report";
export {
  DevcontainerFeatureEntrypoints,
  type DevcontainerFeatureEntrypointsProps,
} from "./devcontainer/feature-entrypoints";
export {
  DevcontainerIgnoredCustomizations,
  type DevcontainerIgnoredCustomizationsProps,
} from "./devcontainer/ignored-customizations";
export {
  DevcontainerLocalWorkspaceFolder,
  type DevcontainerLocalWorkspaceFolderProps,
} from "./devcontainer/local-workspace-folder";
export { DevcontainerMounts, type DevcontainerMountsProps } from "./devcontainer/mounts";
export { NamedLocals } from "./core/named-locals";
export { DevcontainerParameters } from "./devcontainer/parameters";
export { DevcontainerPlacement, type DevcontainerPlacementProps } from "./devcontainer/placement";
export {
  DEFAULT_MAX_DISK_GIB,
  DEFAULT_MAX_EPHEMERAL_STORAGE_GIB,
  DEFAULT_MAX_EXTENDED_RESOURCES,
  DevcontainerQuantityCaps,
} from "./devcontainer/quantity-caps";
export { DevcontainerRuntime, type DevcontainerRuntimeProps } from "./devcontainer/runtime";
export {
  BACKGROUND_STATE_METADATA_SCRIPT,
  DevcontainerScripts,
  POST_ATTACH_STATE_METADATA_SCRIPT,
  type DevcontainerScriptsProps,
} from "./devcontainer/scripts";
export { DevcontainerSizing, type DevcontainerSizingProps } from "./devcontainer/sizing";
export {
  devcontainerBuilderProvider,
  DevcontainerSource,
  type DevcontainerSourceProps,
} from "./devcontainer/source";
export {
  DevcontainerUserSecrets,
  type DevcontainerUserSecretsProps,
} from "./devcontainer/user-secrets";
export { DevcontainerTemplateVariables } from "./devcontainer/template-variables";
export {
  DevcontainerVariablesSecret,
  type DevcontainerVariablesSecretProps,
} from "./devcontainer/variables-secret";
export { DevcontainerWaitFor, type DevcontainerWaitForProps } from "./devcontainer/wait-for";
export {
  DevcontainerUserEnvProbe,
  type DevcontainerUserEnvProbeProps,
} from "./devcontainer/user-env-probe";
export { DevcontainerWarnings, type DevcontainerWarningsProps } from "./devcontainer/warnings";
export {
  DevcontainerWorkspaceFolder,
  type DevcontainerWorkspaceFolderProps,
} from "./devcontainer/workspace-folder";
export { DevcontainerPod, type DevcontainerPodProps } from "./devcontainer/pod";
export {
  DevcontainerWorkspaceUser,
  type DevcontainerWorkspaceUserProps,
} from "./devcontainer/workspace-user";

// Policies a construct declares itself against (what a limits expression holds).
export { declareLimits } from "./policy/policy-rule";
