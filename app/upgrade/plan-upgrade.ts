/**
 * Plans a synthesized template version on the states of existing workspaces, as each
 * workspace's next start would apply it: real Terraform, the plan harness's mock providers
 * (which ask for replacement where the real providers do), no refresh, and every data source
 * answering what the workspace's last build recorded (owner, workspace, parameters, the
 * devcontainer metadata). One mock provider process serves every plan; plans run in parallel.
 */
import { cpus } from "node:os";
import { TerraformError, TerraformHarness, type PlanResult } from "@coder-cdktf/terraform-harness";
import { stackConfiguration } from "../../lib/private/stack-configuration";
import { useStackConfigurations } from "../harness-configuration";
import { classifyChanges, type WorkspaceChanges } from "./classify-changes";
import { readWorkspaceState, StateError } from "./workspace-state";
import { redact, sensitiveVariableValues, stateSecrets } from "./redact";

/** Where one workspace's state comes from: `coder state pull`, or a saved file. */
export interface StateSource {
  /** `owner/name`, or the file, for messages until the state names its workspace. */
  readonly source: string;
  /**
   * The workspace's name as Coder has it now (a pulled state): it wins over the one the
   * state recorded at its last build (a workspace renamed since). @default the recorded one
   */
  readonly workspace?: string;
  /** The state file's text; rejects with a message that says what failed. */
  read(): Promise<string>;
}

/** The template version to plan, as push synthesized it. */
export interface UpgradeTarget {
  /** The stack folder (`cdktf.out/stacks/<id>`). */
  readonly dir: string;
  /** The Coder template name the workspaces belong to. */
  readonly name: string;
  /** Parameters whose values may be secrets (synth's `secretParameters`): never printed. @default none */
  readonly secretParameters?: readonly string[];
  /** The configuration synth returned (its `model`). @default read from `dir` (stackConfiguration) */
  readonly model?: Record<string, unknown>;
}

/** The whole configuration of `target` (its variables are in main.tf, not cdk.tf.json). */
export function configurationOf(target: UpgradeTarget): Record<string, unknown> {
  return target.model ?? stackConfiguration(target.dir);
}

export interface PlanUpgradeOptions {
  /** Variable values push passes besides the synthesized defaults (the variables file). @default {} */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Plans at a time. @default the number of CPUs */
  readonly parallel?: number;
  /** A running harness to use (a benchmark, a test file's); else one is started and stopped. */
  readonly harness?: TerraformHarness;
}

/** One workspace's result: what the plan does to it, or why it could not be planned. */
export type WorkspaceUpgrade =
  | ({
      readonly workspace: string;
      readonly source: string;
      readonly stopped: boolean;
      /** Module calls not planned (registry modules are stand-ins in the harness). */
      readonly unchecked: readonly string[];
      /** Kubernetes API rules the planned objects break: the apply would fail. */
      readonly refused: readonly string[];
    } & WorkspaceChanges)
  | { readonly workspace: string; readonly source: string; readonly error: string };

export interface UpgradeReport {
  readonly template: string;
  readonly workspaces: readonly WorkspaceUpgrade[];
}

/** Whether any planned workspace loses data. */
export function losesData(report: UpgradeReport): boolean {
  return report.workspaces.some((w) => "dataLoss" in w && w.dataLoss.length > 0);
}

/** Plans `target` on every state of `sources`; a state that cannot be planned is reported, not thrown. */
export async function planUpgrade(
  target: UpgradeTarget,
  sources: readonly StateSource[],
  options: PlanUpgradeOptions = {},
): Promise<UpgradeReport> {
  useStackConfigurations();
  const harness = options.harness ?? (await TerraformHarness.start());
  try {
    const results: WorkspaceUpgrade[] = new Array(sources.length);
    const variables = options.variables ?? {};
    const secrets = sensitiveVariableValues(configurationOf(target), variables);
    let next = 0;
    const worker = async () => {
      while (next < sources.length) {
        const i = next++;
        results[i] = await planOne(harness, target, sources[i], variables, secrets);
      }
    };
    const parallel = Math.max(1, Math.min(options.parallel ?? cpus().length, sources.length));
    await Promise.all(Array.from({ length: parallel }, worker));
    return { template: target.name, workspaces: results };
  } finally {
    if (options.harness === undefined) await harness.stop();
  }
}

/**
 * One workspace's result, every text in it redacted (redact.ts) with the secrets of the
 * template's variables (`secrets`) and of the workspace's state: its diagnostics may quote them.
 */
async function planOne(
  harness: TerraformHarness,
  target: UpgradeTarget,
  source: StateSource,
  variables: Readonly<Record<string, unknown>>,
  secrets: readonly string[],
): Promise<WorkspaceUpgrade> {
  const known = [...secrets];
  const result = await planState(harness, target, source, variables, known);
  const clean = (text: string) => redact(text, known);
  const named = { ...result, workspace: clean(result.workspace), source: clean(result.source) };
  if ("error" in named) return { ...named, error: clean(named.error) };
  return { ...named, refused: named.refused.map(clean) };
}

/** Plans one state; adds the state's secrets to `known` as soon as it is read. */
async function planState(
  harness: TerraformHarness,
  target: UpgradeTarget,
  source: StateSource,
  variables: Readonly<Record<string, unknown>>,
  known: string[],
): Promise<WorkspaceUpgrade> {
  let workspace = source.source;
  try {
    const text = await source.read();
    try {
      known.push(...stateSecrets(JSON.parse(text), target.secretParameters));
    } catch {
      // Not JSON: readWorkspaceState says so, quoting only its printable start.
    }
    const state = readWorkspaceState(text, source.source);
    workspace = source.workspace ?? state.workspace;
    if (state.templateName !== target.name) {
      throw new StateError(
        `${workspace} (${source.source}) belongs to template "${state.templateName || "(none recorded)"}", ` +
          `not "${target.name}" (data.coder_workspace.me.template_name): refusing to plan another template's state`,
      );
    }
    const plan: PlanResult = await harness.plan(target.dir, {
      variables,
      fixtures: state.fixtures,
      state: state.state,
      refresh: false,
      kubernetesApi: "report",
    });
    return {
      workspace,
      source: source.source,
      stopped: state.stopped,
      unchecked: state.modules,
      refused: plan.kubernetesApi().violations.map((v) => `${v.address}: ${v.message}`),
      ...classifyChanges(plan, state.stopped),
    };
  } catch (e) {
    return { workspace, source: source.source, error: errorText(e) };
  }
}

/**
 * The first lines of an error; of a failed Terraform run, its diagnostics (the command line
 * and the temp folder it ran in say nothing to an operator).
 */
function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  if (e instanceof TerraformError && lines.length > 1) lines[0] = "terraform plan failed:";
  return lines.slice(0, 12).join("\n");
}
