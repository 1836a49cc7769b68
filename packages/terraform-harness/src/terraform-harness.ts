/**
 * TerraformHarness: validate, plan and apply synthesized templates with the real Terraform CLI
 * against the mock providers, offline.
 *
 *   let tf: TerraformHarness;
 *   beforeAll(async () => (tf = await TerraformHarness.start()));
 *   afterAll(() => tf.stop());
 *
 *   const plan = await tf.plan("cdktf.out/stacks/kubernetes", { parameters: { cpu: "4" } });
 *   expect(plan.resource("kubernetes_deployment_v1.main[0]").after.spec).toMatchObject(...);
 *
 * Start one harness per test file. Every call works in a fresh copy of the directory and gets
 * its own provider servers and fixtures, so tests in one file may run concurrently. Under the
 * project's jest the mock provider process is one per worker, shared by its test files
 * (shared-mock.ts); elsewhere each harness starts its own.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Diagnostic, toDiagnostic } from "./diagnostics";
import { buildFixtures, type FixtureInputs } from "./fixtures";
import { isRecord, parseJsonLines } from "./json";
import { KubernetesApiError } from "./kubernetes-api";
import { MockProviderProcess } from "./mock-provider-process";
import { runWithDiagnostics } from "./plan-expressions";
import { PlanResult } from "./plan-result";
import { RunCache } from "./run-cache";
import { sharedMockProcess } from "./shared-mock";
import {
  type StateOutput,
  type StateResource,
  stateOutputs,
  stateResources,
} from "./state-resources";
import { requireTerraform, runTerraform } from "./terraform-cli";
import { prepareWorkdir } from "./template-workdir";

/** Options of {@link TerraformHarness.plan} and {@link TerraformHarness.apply}. */
export interface PlanOptions extends FixtureInputs, SchemaOptions {
  /** Values for the configuration's variables. @default {} */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Plan on top of this state (from an earlier apply) instead of an empty one. @default none */
  readonly state?: ApplyResult | TerraformState;
  /**
   * Whether plan refreshes the state's resources first (`-refresh=false` when not). The mock
   * reads back what it stored, so a refresh only costs time (~0.2 s for the devcontainer
   * template) when a test plans many inputs on one state. Data sources are read either way.
   * @default true
   */
  readonly refresh?: boolean;
  /**
   * What a planned object that breaks a Kubernetes API server rule does: `enforce` rejects
   * the plan with a KubernetesApiError (the apply would fail in a cluster), `report` leaves
   * it to the test (`PlanResult.kubernetesApi()`).
   * @default "enforce"
   */
  readonly kubernetesApi?: "enforce" | "report";
}

/** Which provider schemas a call is checked against. */
export interface SchemaOptions {
  /**
   * Schema documents (`terraform providers schema -json`, absolute paths) whose providers
   * replace the vendored ones of the same address for this call: a provider release other
   * than the vendored newest, e.g. the oldest a template's bound admits.
   * @default none (the vendored schemas)
   */
  readonly schemaFiles?: readonly string[];
}

/**
 * Chooses the schema documents of a call that names none, from the directory it plans: a
 * test runner sets one to run every plan against another provider release (the project's
 * jest does for the oldest release each template's bound admits).
 */
export type SchemaFilesSelector = (dir: string) => readonly string[] | undefined;

let schemaFilesSelector: SchemaFilesSelector | undefined;

/** Sets (or, with undefined, clears) the {@link SchemaFilesSelector} of this process. */
export function setSchemaFilesSelector(selector: SchemaFilesSelector | undefined): void {
  schemaFilesSelector = selector;
}

/**
 * Runs one step of {@link TerraformHarness.initAndPlan} (`init` or `plan`): `run()` runs the
 * Terraform command; a wrapper may time it.
 */
export type InitAndPlanStep = (
  name: "init" | "plan",
  run: () => Promise<unknown>,
) => Promise<unknown>;

/** A Terraform state file's JSON. */
export type TerraformState = Readonly<Record<string, unknown>>;

/** Result of {@link TerraformHarness.validate}. */
export interface ValidationResult {
  readonly valid: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

/** Result of {@link TerraformHarness.apply}. */
export interface ApplyResult {
  /** The state file, to pass as `PlanOptions.state`. */
  readonly state: TerraformState;
  readonly outputs: Record<string, StateOutput>;
  readonly warnings: readonly Diagnostic[];
  /** Managed resources (and read data sources) in the state, in modules too. */
  readonly resources: readonly StateResource[];
}

/** One step of an apply or destroy, in the order Terraform reported it. */
export interface ApplyEvent {
  /** `start` when Terraform began the change, `complete` when the provider finished it. */
  readonly phase: "start" | "complete";
  /** The resource instance, e.g. `kubernetes_deployment_v1.main[0]`. */
  readonly address: string;
  /** `delete`, `create`, `update`, … as Terraform names it. */
  readonly action: string;
}

/** Result of {@link TerraformHarness.destroy}. */
export interface DestroyResult {
  /** Every resource change of the destroy, in the order Terraform reported it. */
  readonly events: readonly ApplyEvent[];
  readonly warnings: readonly Diagnostic[];
}

const VAR_FILE = "harness.tfvars.json";
const FIXTURES_FILE = "harness-fixtures.json";
const PLAN_FILE = "tfplan";

export class TerraformHarness {
  private stopped = false;

  private constructor(
    private readonly server: MockProviderProcess,
    /** Whether the process is shared (shared-mock.ts): then it is not this harness's to stop. */
    private readonly shared: boolean,
  ) {}

  /** Checks Terraform and starts the mock provider process (or takes the shared one). */
  static async start(): Promise<TerraformHarness> {
    const shared = sharedMockProcess();
    // Both are child processes: the mock starts while Terraform's version is checked.
    const starting = shared ?? MockProviderProcess.start();
    starting.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
    try {
      await requireTerraform();
    } catch (error) {
      if (!shared) {
        await starting.then(
          (server) => server.stop(),
          () => undefined,
        );
      }
      throw error;
    }
    return new TerraformHarness(await starting, shared !== undefined);
  }

  /**
   * Stops the mock provider process; a shared one is left running for the others. Either
   * way the harness takes no more calls. Calls still in flight keep their server sets until
   * Terraform ends (then they close them): closing a set under a Terraform that has yet to
   * dial it would have Terraform kill the process its reattach value names (go-plugin kills
   * a reattached process it cannot reach), the shared mock of every other test file.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (!this.shared) await this.server.stop();
  }

  /** `terraform validate`: core checks of the configuration against the provider schemas. */
  async validate(dir: string, options: SchemaOptions = {}): Promise<ValidationResult> {
    return this.inWorkdir(dir, options, async (cwd, env) => {
      const run = await runTerraform(["validate", "-json", "-no-color"], {
        cwd,
        env,
        check: false,
      });
      const parsed: unknown = JSON.parse(run.stdout);
      if (!isRecord(parsed))
        throw new Error(`unexpected validate output: ${run.stdout}${run.stderr}`);
      const diagnostics = Array.isArray(parsed.diagnostics)
        ? parsed.diagnostics.filter(isRecord)
        : [];
      return {
        valid: parsed.valid === true,
        diagnostics: diagnostics
          .map(toDiagnostic)
          .filter((d) => !d.summary.startsWith("Provider development overrides")),
      };
    });
  }

  /**
   * Installs the configuration's modules: a manifest of stubs alone is written directly
   * (template-workdir.ts), anything else is left to `terraform get`, which needs no network
   * for local modules.
   */
  private async installModules(
    cwd: string,
    env: Record<string, string>,
    manifest: string | undefined,
  ): Promise<void> {
    if (manifest === undefined) {
      await runTerraform(["get", "-no-color"], { cwd, env });
      return;
    }
    const file = join(cwd, ".terraform", "modules", "modules.json");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, manifest);
  }

  /**
   * `terraform plan` + `terraform show -json`; rejects with a TerraformError on plan errors.
   * A plan with the same files and inputs as an earlier one of this jest run reads its result.
   */
  async plan(dir: string, options: PlanOptions = {}): Promise<PlanResult> {
    const { show, diagnostics } = await this.once("plan", dir, options, () =>
      this.runPlan(dir, options),
    );
    const plan = new PlanResult(show, diagnostics);
    enforceKubernetesApi(plan, options);
    return plan;
  }

  private async runPlan(dir: string, options: PlanOptions): Promise<PlanRun> {
    return this.inWorkdir(dir, options, (cwd, env) => this.planIn(cwd, env, options));
  }

  /** `plan -out` and `show -json` in a prepared workdir; the plan file stays there. */
  private async planIn(
    cwd: string,
    env: Record<string, string>,
    options: PlanOptions,
  ): Promise<PlanRun> {
    const { diagnostics } = await runWithDiagnostics(planArguments(options), { cwd, env });
    const show = await runTerraform(["show", "-json", PLAN_FILE], { cwd, env });
    return { show: JSON.parse(show.stdout) as Record<string, unknown>, diagnostics };
  }

  /**
   * A start from a fresh working directory, as Coder's provisioner runs every build:
   * `terraform init` (the modules from the stubs, the providers the mock's reattached servers,
   * so nothing is downloaded and no provider is copied), then `terraform plan`. Never read from
   * the run cache: the bench (`node scripts/bench.js --first-start`) times it, through `step`,
   * which runs each of the two and may wrap them (a timer).
   */
  async initAndPlan(
    dir: string,
    options: PlanOptions = {},
    step: InitAndPlanStep = (_name, run) => run(),
  ): Promise<void> {
    await this.inWorkdir(
      dir,
      options,
      async (cwd, env) => {
        await step("init", () => runTerraform(["init", "-input=false", "-no-color"], { cwd, env }));
        await step("plan", () => runWithDiagnostics(planArguments(options), { cwd, env }));
      },
      { installModules: false },
    );
  }

  /**
   * `terraform apply` (the mock fills computed values from fixtures) and the resulting state.
   * An apply with the same files and inputs as an earlier one of this jest run reads its result.
   */
  async apply(dir: string, options: PlanOptions = {}): Promise<ApplyResult> {
    const applied = await this.once("apply", dir, options, () => this.runApply(dir, options));
    // What the provider sent is what the state holds: the API server would have refused it.
    enforceKubernetesApi(appliedObjects(applied), options);
    return applied;
  }

  /** `compute()`, or the result of an identical earlier call of this jest run (run-cache.ts). */
  private async once<T>(
    operation: string,
    dir: string,
    options: PlanOptions,
    compute: () => Promise<T>,
  ): Promise<T> {
    const cache = RunCache.forThisRun();
    if (!cache) return compute();
    return cache.getOrCompute(cache.key(operation, dir, cacheInputs(options)), compute);
  }

  /**
   * {@link plan} and then {@link apply} with the same inputs, for a test that reads both (a
   * claim's plan and its result): the apply applies the saved plan (`terraform apply tfplan`),
   * as `terraform apply` would apply the plan it makes itself, so Terraform plans once. Each
   * half is stored in the run cache under its own call's key: a later `plan` or `apply` with
   * these inputs reads it, and this call reads what earlier ones stored.
   */
  async planAndApply(
    dir: string,
    options: PlanOptions = {},
  ): Promise<{ readonly plan: PlanResult; readonly applied: ApplyResult }> {
    const cache = RunCache.forThisRun();
    const keys = cache && {
      plan: cache.key("plan", dir, cacheInputs(options)),
      apply: cache.key("apply", dir, cacheInputs(options)),
    };
    let planned = keys && cache.get<PlanRun>(keys.plan);
    let applied = keys && cache.get<ApplyResult>(keys.apply);
    if (planned === undefined || applied === undefined) {
      ({ planned, applied } = await this.runPlanAndApply(dir, options));
      if (keys) {
        cache.set(keys.plan, planned);
        cache.set(keys.apply, applied);
      }
    }
    const plan = new PlanResult(planned.show, planned.diagnostics);
    enforceKubernetesApi(plan, options);
    enforceKubernetesApi(appliedObjects(applied), options);
    return { plan, applied };
  }

  private async runPlanAndApply(
    dir: string,
    options: PlanOptions,
  ): Promise<{ planned: PlanRun; applied: ApplyResult }> {
    return this.inWorkdir(dir, options, async (cwd, env) => {
      const planned = await this.planIn(cwd, env, options);
      return { planned, applied: await applyIn(cwd, env, PLAN_FILE) };
    });
  }

  private async runApply(dir: string, options: PlanOptions): Promise<ApplyResult> {
    return this.inWorkdir(dir, options, (cwd, env) => applyIn(cwd, env, `-var-file=${VAR_FILE}`));
  }

  /**
   * `terraform destroy` of `options.state` (from an earlier apply), reporting the order of
   * the deletes. Terraform starts a delete only once every resource that depends on it is
   * gone, so `events` shows what a real destroy would wait for.
   */
  async destroy(
    dir: string,
    options: PlanOptions & { readonly state: ApplyResult | TerraformState },
  ): Promise<DestroyResult> {
    return this.once("destroy", dir, options, () =>
      this.inWorkdir(dir, options, async (cwd, env) => {
        const { run, diagnostics } = await runWithDiagnostics(
          [
            "destroy",
            "-input=false",
            "-lock=false",
            "-json",
            "-auto-approve",
            `-var-file=${VAR_FILE}`,
          ],
          { cwd, env },
        );
        return {
          events: applyEvents(run.stdout),
          warnings: diagnostics.filter((d) => d.severity === "warning"),
        };
      }),
    );
  }

  /**
   * Runs `fn` in a fresh copy of `dir` with its own fixtures, provider servers, variables and
   * (optional) prior state; everything is removed afterwards.
   */
  private async inWorkdir<T>(
    dir: string,
    options: PlanOptions,
    fn: (cwd: string, env: Record<string, string>) => Promise<T>,
    // initAndPlan leaves the modules to `terraform init`, as a provisioner does.
    { installModules = true }: { readonly installModules?: boolean } = {},
  ): Promise<T> {
    if (this.stopped) throw new Error("the TerraformHarness was stopped");
    const workdir = prepareWorkdir(dir);
    try {
      const cwd = workdir.dir;
      const fixturesFile = join(cwd, FIXTURES_FILE);
      writeFileSync(fixturesFile, JSON.stringify(buildFixtures(options)));
      writeFileSync(join(cwd, VAR_FILE), JSON.stringify(options.variables ?? {}));
      if (options.state) {
        writeFileSync(join(cwd, "terraform.tfstate"), JSON.stringify(stateOf(options.state)));
      }
      const schemaFiles = options.schemaFiles ?? schemaFilesSelector?.(dir) ?? [];
      const servers = await this.server.open(fixturesFile, schemaFiles);
      try {
        const env = { TF_REATTACH_PROVIDERS: servers.reattach };
        if (installModules && workdir.hasModules) {
          await this.installModules(cwd, env, workdir.moduleManifest);
        }
        return await fn(cwd, env);
      } finally {
        await servers.close();
      }
    } finally {
      workdir.cleanup();
    }
  }
}

/** A plan as the run cache stores it: `show -json` and the plan's diagnostics. */
interface PlanRun {
  readonly show: Record<string, unknown>;
  readonly diagnostics: Diagnostic[];
}

/** Throws the objects' API violations, unless `options.kubernetesApi` leaves them to the test. */
export function enforceKubernetesApi(objects: PlanResult, options: PlanOptions): void {
  const { violations } = objects.kubernetesApi();
  if (violations.length > 0 && options.kubernetesApi !== "report") {
    throw new KubernetesApiError(violations);
  }
}

/** What keys a harness call in the run cache besides its operation and files. */
function cacheInputs(options: PlanOptions): unknown {
  return {
    fixtures: buildFixtures(options),
    variables: options.variables ?? {},
    state: options.state ? stateOf(options.state) : null,
    refresh: options.refresh !== false,
    // The files' paths: a test writes a release's schema once and names it by its version.
    schemas: options.schemaFiles ?? [],
  };
}

/**
 * `terraform apply` in a prepared workdir of `input` (the var file, or a saved plan), its
 * result read from the state file (`show -json` would be one more run).
 */
async function applyIn(
  cwd: string,
  env: Record<string, string>,
  input: string,
): Promise<ApplyResult> {
  const { diagnostics } = await runWithDiagnostics(
    ["apply", "-input=false", "-lock=false", "-json", "-auto-approve", input],
    { cwd, env },
  );
  const state = JSON.parse(readFileSync(join(cwd, "terraform.tfstate"), "utf8")) as TerraformState;
  return {
    state,
    outputs: stateOutputs(state),
    warnings: diagnostics.filter((d) => d.severity === "warning"),
    resources: stateResources(state),
  };
}

/** The `apply_start` / `apply_complete` messages of a `-json` apply or destroy stream. */
function applyEvents(stdout: string): ApplyEvent[] {
  const events: ApplyEvent[] = [];
  for (const line of parseJsonLines(stdout)) {
    const phase =
      line.type === "apply_start" ? "start" : line.type === "apply_complete" ? "complete" : null;
    if (phase === null || !isRecord(line.hook) || !isRecord(line.hook.resource)) continue;
    events.push({
      phase,
      address: String(line.hook.resource.addr),
      action: String(line.hook.action),
    });
  }
  return events;
}

/** The state file's JSON of a `PlanOptions.state`. */
export function stateOf(state: ApplyResult | TerraformState): TerraformState {
  return "state" in state ? (state.state as TerraformState) : state;
}

/** The managed resources of an apply, as a plan that creates them (for the API step). */
function appliedObjects(applied: ApplyResult): PlanResult {
  return new PlanResult(
    {
      resource_changes: applied.resources
        .filter((r) => r.mode === "managed")
        .map((r) => ({
          address: r.address,
          mode: r.mode,
          type: r.type,
          change: { actions: ["create"], after: r.values, after_unknown: {} },
        })),
    },
    [],
  );
}

/** The arguments of every harness plan: JSON diagnostics, the inputs file, the plan file kept. */
function planArguments(options: PlanOptions): string[] {
  return [
    "plan",
    "-input=false",
    "-lock=false",
    "-json",
    ...(options.refresh === false ? ["-refresh=false"] : []),
    `-var-file=${VAR_FILE}`,
    `-out=${PLAN_FILE}`,
  ];
}
