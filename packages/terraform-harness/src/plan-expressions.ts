/**
 * planExpressions: plan a provider-free Terraform configuration (variables, locals, outputs,
 * check blocks) with the real Terraform CLI and return its outputs and warnings.
 *
 * This is how apply-time logic that cdktf writes as Terraform expressions (sizing, placement,
 * warnings) is tested: variables in, outputs out, no providers, no init (unless the config calls
 * modules). A plan takes about 0.15 s.
 *
 *   import { planExpressions } from "@coder-cdktf/terraform-harness";
 *
 *   // 1. Build the stack inline: the helper synthesizes it into a temp dir.
 *   const plan = await planExpressions(
 *     (stack) => {
 *       const cpu = new TerraformVariable(stack, "cpu", { type: "number" });
 *       new TerraformOutput(stack, "limit", { value: Fn.min([cpu.numberValue, 4]) });
 *     },
 *     { cpu: 8 },
 *   );
 *   expect(plan.values.limit).toBe(4);
 *   expect(plan.checkFailures).toEqual([]);
 *
 *   // 2. Or pass a stack you built on your own `new App({ outdir })` (synthesized here), or
 *   //    3. a directory holding a *.tf.json / *.tf configuration (e.g. `${outdir}/stacks/<id>`).
 *
 * - `variables` are written to a var file; a name the configuration does not declare throws.
 * - A failed `check` block is a warning: see `warnings` / `checkFailures` (the error_message
 *   texts). A failed variable validation or precondition makes Terraform fail: the promise
 *   rejects with a {@link TerraformError} whose `diagnostics` hold the errors.
 * - `outputs[name]` tells value, sensitivity and unknown-ness; `values[name]` is the bare value
 *   (sensitive values included, since tests must see them).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TerraformStack } from "cdktf";
import { checkFailureMessages, type Diagnostic, diagnosticsFromStream } from "./diagnostics";
import { type PlannedOutput, plannedOutputs } from "./planned-outputs";
import {
  requireTerraform,
  runTerraform,
  type RunTerraformOptions,
  type TerraformRun,
} from "./terraform-cli";
import { prepareWorkdir } from "./template-workdir";

/** What {@link planExpressions} can plan. */
export type ExpressionSource =
  /** A directory with a Terraform configuration (e.g. a synthesized `stacks/<id>`). */
  | string
  /** A stack on an App; the App is synthesized and `stacks/<stack id>` planned. */
  | TerraformStack
  /** Builds the stack's contents; the helper provides a fresh App and stack. */
  | ((stack: TerraformStack) => void);

/** Result of {@link planExpressions}. */
export interface ExpressionPlan {
  /** Root outputs with sensitivity and unknown flags. */
  readonly outputs: Record<string, PlannedOutput>;
  /** Root output values by name (undefined when unknown). */
  readonly values: Record<string, unknown>;
  /** Warnings Terraform printed during plan (failed checks among them). */
  readonly warnings: Diagnostic[];
  /** error_message of each failed `check` assertion, in order. */
  readonly checkFailures: string[];
  /** `terraform show -json` of the saved plan. */
  readonly showJson: Record<string, unknown>;
}

/** Writes the files a project's synth adds beside a synthesized stack's cdk.tf.json. */
export type StackFilesWriter = (stack: TerraformStack, dir: string) => void | Promise<void>;

let stackFiles: StackFilesWriter = () => undefined;

/**
 * Sets what {@link planExpressions} writes beside a stack it synthesizes, before planning:
 * a project's own synth output (the harness knows none of it). Default: nothing.
 */
export function setStackFiles(writer: StackFilesWriter): void {
  stackFiles = writer;
}

/** Var file the harness writes; the name keeps it apart from a template's own tfvars. */
const VAR_FILE = "harness.tfvars.json";

/** Plans `source` with `variables` and returns its outputs and warnings. */
export async function planExpressions(
  source: ExpressionSource,
  variables: Readonly<Record<string, unknown>> = {},
): Promise<ExpressionPlan> {
  await requireTerraform();
  const synthesized = await configurationDir(source);
  const workdir = prepareWorkdir(synthesized.dir);
  try {
    const cwd = workdir.dir;
    if (workdir.moduleManifest !== undefined) {
      // Every call is local (stubs among them): the manifest saves an init, and is the only
      // way to a registry call of a `.tf` file, which stays as written (template-workdir.ts).
      mkdirSync(join(cwd, ".terraform", "modules"), { recursive: true });
      writeFileSync(join(cwd, ".terraform", "modules", "modules.json"), workdir.moduleManifest);
    } else if (workdir.hasModules) {
      await runTerraform(["init", "-backend=false", "-input=false", "-no-color"], { cwd });
    }
    writeFileSync(join(cwd, VAR_FILE), JSON.stringify(variables));
    const { diagnostics } = await runWithDiagnostics(
      ["plan", "-input=false", "-lock=false", "-json", `-var-file=${VAR_FILE}`, "-out=tfplan"],
      { cwd },
    );
    const show = await runTerraform(["show", "-json", "tfplan"], { cwd });
    const showJson = JSON.parse(show.stdout) as Record<string, unknown>;
    const outputs = plannedOutputs(showJson);
    const warnings = diagnostics.filter((d) => d.severity === "warning");
    return {
      outputs,
      values: Object.fromEntries(Object.entries(outputs).map(([k, o]) => [k, o.value])),
      warnings,
      checkFailures: checkFailureMessages(warnings),
      showJson,
    };
  } finally {
    workdir.cleanup();
    synthesized.cleanup();
  }
}

/**
 * A `-json` run of `terraform <args>` and the diagnostics of its stream; rejects on a variable
 * the configuration does not declare ({@link assertVariablesDeclared}).
 */
export async function runWithDiagnostics(
  args: readonly string[],
  options: RunTerraformOptions,
): Promise<{ readonly run: TerraformRun; readonly diagnostics: Diagnostic[] }> {
  const run = await runTerraform(args, options);
  const diagnostics = diagnosticsFromStream(run.stdout);
  assertVariablesDeclared(diagnostics);
  return { run, diagnostics };
}

/** Terraform only warns about values for undeclared variables in a var file; tests want a failure. */
export function assertVariablesDeclared(diagnostics: readonly Diagnostic[]): void {
  const undeclared = diagnostics.filter((d) =>
    d.summary.startsWith("Value for undeclared variable"),
  );
  if (undeclared.length > 0) {
    throw new Error(
      `variables not declared by the configuration: ${undeclared.map((d) => d.detail).join(" ")}`,
    );
  }
}

/** The directory to plan, and how to remove it when the helper created it. */
async function configurationDir(
  source: ExpressionSource,
): Promise<{ dir: string; cleanup: () => void }> {
  if (typeof source === "string") return { dir: source, cleanup: () => undefined };
  // Loaded lazily: test files that never synthesize do not pay for loading cdktf.
  const cdk = await import("cdktf");
  let stack: TerraformStack;
  let ownOutdir: string | undefined;
  if (typeof source === "function") {
    ownOutdir = mkdtempSync(join(tmpdir(), "tf-expressions-"));
    stack = new cdk.TerraformStack(new cdk.App({ outdir: ownOutdir }), "expressions");
    source(stack);
  } else {
    stack = source;
  }
  const app = cdk.App.of(stack);
  app.synth();
  const dir = join(app.outdir, "stacks", stack.node.id);
  // What the project's synth writes beside cdk.tf.json (setStackFiles): what is planned
  // is what a template ships.
  await stackFiles(stack, dir);
  return {
    dir,
    cleanup: () => {
      if (ownOutdir) rmSync(ownOutdir, { recursive: true, force: true });
    },
  };
}
