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
 * its own provider servers and fixtures, so tests in one file may run concurrently.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Diagnostic, diagnosticsFromStream, toDiagnostic } from "./diagnostics";
import { buildFixtures, type FixtureInputs } from "./fixtures";
import { isRecord, parseJsonLines } from "./json";
import { KubernetesApiError } from "./kubernetes-api";
import { MockProviderProcess } from "./mock-provider-process";
import { assertVariablesDeclared } from "./plan-expressions";
import { PlanResult } from "./plan-result";
import { RunCache } from "./run-cache";
import {
  type StateOutput,
  type StateResource,
  stateOutputs,
  stateResources,
} from "./state-resources";
import { requireTerraform, runTerraform } from "./terraform-cli";
import { prepareWorkdir } from "./template-workdir";

/** Options of {@link TerraformHarness.plan} and {@link TerraformHarness.apply}. */
export interface PlanOptions extends FixtureInputs {
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
  private constructor(private readonly server: MockProviderProcess) {}

  /** Checks Terraform and starts the mock provider process. */
  static async start(): Promise<TerraformHarness> {
    await requireTerraform();
    return new TerraformHarness(await MockProviderProcess.start());
  }

  /** Stops the mock provider process. */
  async stop(): Promise<void> {
    await this.server.stop();
  }

  /** `terraform validate`: core checks of the configuration against the provider schemas. */
  async validate(dir: string): Promise<ValidationResult> {
    return this.inWorkdir(dir, {}, async (cwd, env) => {
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

  /** Module manifests `terraform get` wrote, by the workdir's set of stub modules. */
  private readonly moduleManifests = new Map<string, string>();

  /**
   * Runs `terraform get`, once per set of stub modules: the manifest it writes for local
   * modules holds only relative paths, so later workdirs with the same modules reuse it.
   */
  private async installModules(
    cwd: string,
    env: Record<string, string>,
    key: string | undefined,
  ): Promise<void> {
    const manifest = join(cwd, ".terraform", "modules", "modules.json");
    const cached = key === undefined ? undefined : this.moduleManifests.get(key);
    if (cached !== undefined) {
      mkdirSync(dirname(manifest), { recursive: true });
      writeFileSync(manifest, cached);
      return;
    }
    await runTerraform(["get", "-no-color"], { cwd, env });
    if (key !== undefined && existsSync(manifest)) {
      this.moduleManifests.set(key, readFileSync(manifest, "utf8"));
    }
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
    const { violations } = plan.kubernetesApi();
    if (violations.length > 0 && options.kubernetesApi !== "report") {
      throw new KubernetesApiError(violations);
    }
    return plan;
  }

  private async runPlan(
    dir: string,
    options: PlanOptions,
  ): Promise<{ show: Record<string, unknown>; diagnostics: Diagnostic[] }> {
    return this.inWorkdir(dir, options, async (cwd, env) => {
      const plan = await runTerraform(
        [
          "plan",
          "-input=false",
          "-lock=false",
          "-json",
          ...(options.refresh === false ? ["-refresh=false"] : []),
          `-var-file=${VAR_FILE}`,
          `-out=${PLAN_FILE}`,
        ],
        { cwd, env },
      );
      const diagnostics = diagnosticsFromStream(plan.stdout);
      assertVariablesDeclared(diagnostics);
      const show = await runTerraform(["show", "-json", PLAN_FILE], { cwd, env });
      return { show: JSON.parse(show.stdout) as Record<string, unknown>, diagnostics };
    });
  }

  /**
   * `terraform apply` (the mock fills computed values from fixtures) and the resulting state.
   * An apply with the same files and inputs as an earlier one of this jest run reads its result.
   */
  async apply(dir: string, options: PlanOptions = {}): Promise<ApplyResult> {
    const applied = await this.once("apply", dir, options, () => this.runApply(dir, options));
    // What the provider sent is what the state holds: the API server would have refused it.
    const { violations } = appliedObjects(applied).kubernetesApi();
    if (violations.length > 0 && options.kubernetesApi !== "report") {
      throw new KubernetesApiError(violations);
    }
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
    const key = cache.key(operation, dir, {
      fixtures: buildFixtures(options),
      variables: options.variables ?? {},
      state: options.state ? stateOf(options.state) : null,
      refresh: options.refresh !== false,
    });
    return cache.getOrCompute(key, compute);
  }

  private async runApply(dir: string, options: PlanOptions): Promise<ApplyResult> {
    return this.inWorkdir(dir, options, async (cwd, env) => {
      const apply = await runTerraform(
        ["apply", "-input=false", "-lock=false", "-json", "-auto-approve", `-var-file=${VAR_FILE}`],
        { cwd, env },
      );
      const diagnostics = diagnosticsFromStream(apply.stdout);
      assertVariablesDeclared(diagnostics);
      // Read from the state file: `terraform show -json` would be one more run (state-resources.ts).
      const state = JSON.parse(
        readFileSync(join(cwd, "terraform.tfstate"), "utf8"),
      ) as TerraformState;
      return {
        state,
        outputs: stateOutputs(state),
        warnings: diagnostics.filter((d) => d.severity === "warning"),
        resources: stateResources(state),
      };
    });
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
        const run = await runTerraform(
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
        const diagnostics = diagnosticsFromStream(run.stdout);
        assertVariablesDeclared(diagnostics);
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
  ): Promise<T> {
    const workdir = prepareWorkdir(dir);
    try {
      const cwd = workdir.dir;
      const fixturesFile = join(cwd, FIXTURES_FILE);
      writeFileSync(fixturesFile, JSON.stringify(buildFixtures(options)));
      writeFileSync(join(cwd, VAR_FILE), JSON.stringify(options.variables ?? {}));
      if (options.state) {
        writeFileSync(join(cwd, "terraform.tfstate"), JSON.stringify(stateOf(options.state)));
      }
      const servers = await this.server.open(fixturesFile);
      try {
        const env = { TF_REATTACH_PROVIDERS: servers.reattach };
        // Local (stub) modules must be installed; `get` is enough and needs no network.
        if (workdir.hasModules) await this.installModules(cwd, env, workdir.moduleKey);
        return await fn(cwd, env);
      } finally {
        await servers.close();
      }
    } finally {
      workdir.cleanup();
    }
  }
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
function stateOf(state: ApplyResult | TerraformState): TerraformState {
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
