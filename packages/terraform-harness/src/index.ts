/**
 * Test harness: the real Terraform CLI validates and plans synthesized templates offline,
 * against a mock provider server (see docs/testing.md).
 *
 * - planExpressions(source, variables): provider-free plans of variables/locals/outputs/checks.
 *   setStackFiles(writer): what the project's synth writes beside a stack it synthesizes.
 * - setConfigurationReader(reader): a directory's whole configuration, when its synth writes
 *   module calls and variables to `.tf` files (the harness parses no HCL).
 * - TerraformHarness: validate/plan/apply templates against the mock coder, kubernetes and
 *   devcontainerbuilder providers (one mock process per harness, or one a test runner shares:
 *   setSharedMockProvider, SharedMock); planAndApply plans once for both.
 *   initAndPlan runs `terraform init` and a plan, as a provisioner's fresh workdir does.
 * - prepareModuleBatch(dir, instances): many variations of one template in one plan, read
 *   back per instance with PlanResult.instance(address).
 * - requireTerraform(): fails loudly when Terraform >= 1.5 is missing.
 */
export { setConfigurationReader, type ConfigurationReader } from "./template-workdir";
export {
  planExpressions,
  setStackFiles,
  type ExpressionPlan,
  type ExpressionSource,
  type StackFilesWriter,
} from "./plan-expressions";
export {
  enforceKubernetesApi,
  stateOf,
  setSchemaFilesSelector,
  TerraformHarness,
  type ApplyEvent,
  type ApplyResult,
  type DestroyResult,
  type InitAndPlanStep,
  type PlanOptions,
  type SchemaFilesSelector,
  type SchemaOptions,
  type TerraformState,
  type ValidationResult,
} from "./terraform-harness";
export {
  mockEnvironment,
  setSharedMockProvider,
  SHARED_MOCK_GLOBAL,
  SharedMock,
  type SharedMockProvider,
} from "./shared-mock";
export {
  collectResources,
  PlanResult,
  type PlannedResource,
  type ReadDataSource,
} from "./plan-result";
export {
  type ApiValidation,
  type ApiViolation,
  KubernetesApiError,
  normalizePath,
  type PlannedPod,
} from "./kubernetes-api";
export { podSecurityLevel, type PodSecurityLevel } from "./pod-security";
export {
  destructiveChanges,
  type DestructiveChange,
  expectNoReplace,
  STATEFUL_TYPES,
} from "./plan-changes";
export { type StateOutput, type StateResource, stateResources } from "./state-resources";
export { mergeStates, type ModuleBatch, nestState, prepareModuleBatch } from "./module-batch";
export {
  DEFAULT_OWNER,
  DEFAULT_PROVISIONER,
  DEFAULT_WORKSPACE,
  type FixtureEntry,
  type Fixtures,
  type FixtureValues,
  type MatchedFixture,
  type WorkspaceFixture,
} from "./fixtures";
export { checkFailureMessages, CHECK_FAILED_SUMMARY, type Diagnostic } from "./diagnostics";
export type { PlannedOutput } from "./planned-outputs";
export { requireTerraform, TerraformError, MINIMUM_TERRAFORM_VERSION } from "./terraform-cli";
