/**
 * Many previews' first starts in one `terraform apply`, for the preview tests.
 *
 * Each preview applies the devcontainer template once (~0.85 s of CPU); a test file previews
 * dozens of repositories. {@link BatchedFirstStarts} wraps a PreviewSession: the first starts
 * asked for in one turn of the event loop are applied together as instances of a module
 * batch (prepareModuleBatch), and each caller gets back what `PreviewSession.firstStart`
 * would have returned for its own inputs alone (batched-previews.test.ts compares the two).
 *
 * How the instances are told apart, given that the mock provider only sees configurations:
 * - Parameters: every `data "coder_parameter"` of the batch's copy of the template gets a
 *   `styling` (a UI hint the template does not set and nothing reads) naming its instance,
 *   and each instance's values are fixtures matched on name and styling.
 * - Build and metadata: the build is configured with the instance's `repository` parameter,
 *   so the build fixture matched on it names the image after the instance's repository, and
 *   the data source, configured with that name, reads the instance's metadata. Instances
 *   whose repository or name would collide with different values go into another batch.
 * - Outputs: a root output holds every instance's outputs (an instance has no root outputs).
 * - Warnings: the state's check results say which instance each failed check belongs to; a
 *   warning that cannot be attributed so makes the batch fall back to one apply per preview.
 * - The Kubernetes API step runs on each instance's resources alone.
 * A batch that fails in any way is applied again one preview at a time, so that each preview
 * shows its own error. A first start asked for twice (a preview's text and `--json`) is
 * applied once.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  appliedViolations,
  CHECK_FAILED_SUMMARY,
  type Diagnostic,
  type FixtureEntry,
  KubernetesApiError,
  prepareModuleBatch,
  type StateOutput,
} from "@coder-cdktf/terraform-harness";
import {
  type FirstStarts,
  firstStartOptions,
  firstStartView,
  type PreviewSession,
} from "../../../cli/run-preview";
import type { PlanView } from "../../../app/preview/workspace-report";

/** The template variable naming an instance in the batch's copy of the template. */
const INSTANCE_VARIABLE = "harness_preview_instance";
/** The root output holding every instance's outputs. */
const INSTANCES_OUTPUT = "harness_preview_instances";

/** The inputs of one first start. */
interface FirstStart {
  readonly metadata: Record<string, unknown>;
  readonly variables: Readonly<Record<string, string>>;
  readonly parameters: Readonly<Record<string, string>>;
  readonly repoName: string;
}

interface Queued {
  readonly start: FirstStart;
  readonly resolve: (view: PlanView) => void;
  readonly reject: (error: unknown) => void;
}

/** The batch's copy of the template (see the file comment) and what grouping needs of it. */
interface BatchTemplate {
  readonly dir: string;
  /** Variables the provider blocks read: instances of one batch share their values. */
  readonly providerVariables: readonly string[];
  /** The outputs the template declares, and whether each is sensitive. */
  readonly outputs: Readonly<Record<string, boolean>>;
}

export class BatchedFirstStarts implements FirstStarts {
  private queue: Queued[] = [];
  private readonly started = new Map<string, Promise<PlanView>>();
  /** Batches run one after the other: one apply already keeps both cores busy. */
  private previous: Promise<unknown> = Promise.resolve();
  private template: BatchTemplate | undefined;
  /** Terraform runs this wrapper made (batches and single applies), for the tests. */
  readonly applies: { readonly instances: number }[] = [];

  constructor(private readonly session: PreviewSession) {}

  get requiredVariables(): readonly string[] {
    return this.session.requiredVariables;
  }

  /** Removes the batch's copy of the template (the session is the caller's to close). */
  close(): void {
    if (this.template) rmSync(this.template.dir, { recursive: true, force: true });
    this.template = undefined;
  }

  firstStart(
    metadata: Record<string, unknown>,
    variables: Readonly<Record<string, string>>,
    parameters: Readonly<Record<string, string>>,
    repoName: string,
  ): Promise<PlanView> {
    const start: FirstStart = { metadata, variables, parameters, repoName };
    const key = JSON.stringify(start);
    const known = this.started.get(key);
    if (known) return known;
    const result = new Promise<PlanView>((resolve, reject) => {
      this.queue.push({ start, resolve, reject });
      // Every preview started in this turn (their synchronous parts) joins the batch.
      if (this.queue.length === 1) setImmediate(() => this.flush());
    });
    this.started.set(key, result);
    return result;
  }

  private flush(): void {
    const queued = this.queue;
    this.queue = [];
    let template: BatchTemplate;
    try {
      template = this.batchTemplate();
    } catch (error) {
      for (const item of queued) item.reject(error);
      return;
    }
    for (const batch of groups(queued, template.providerVariables)) {
      const run = this.previous.then(() => this.applyBatch(batch, template));
      this.previous = run.catch(() => undefined);
    }
  }

  private async applyBatch(batch: readonly Queued[], template: BatchTemplate): Promise<void> {
    let views: PromiseSettledResult<PlanView>[];
    try {
      views = batch.length === 1 ? [] : await this.applyTogether(batch, template);
    } catch {
      views = [];
    }
    if (views.length === 0) {
      // Alone (or after a batch failed): exactly what the preview would do without batching.
      views = await Promise.allSettled(
        batch.map(({ start }) => {
          this.applies.push({ instances: 1 });
          return this.session.firstStart(
            start.metadata,
            start.variables,
            start.parameters,
            start.repoName,
          );
        }),
      );
    }
    views.forEach((view, n) =>
      view.status === "fulfilled" ? batch[n].resolve(view.value) : batch[n].reject(view.reason),
    );
  }

  /** The batch's results; throws when the batch cannot be applied or attributed. */
  private async applyTogether(
    batch: readonly Queued[],
    template: BatchTemplate,
  ): Promise<PromiseSettledResult<PlanView>[]> {
    const keys = batch.map((_, n) => `p${n}`);
    const modules = prepareModuleBatch(
      template.dir,
      Object.fromEntries(
        keys.map((key, n) => [key, { ...batch[n].start.variables, [INSTANCE_VARIABLE]: key }]),
      ),
    );
    try {
      const moduleCall = modules.instanceAddress(keys[0]).replace(/\[.*$/, "");
      writeFileSync(
        join(modules.dir, "harness-preview-outputs.tf.json"),
        JSON.stringify({
          output: { [INSTANCES_OUTPUT]: { value: `\${${moduleCall}}`, sensitive: true } },
        }),
      );
      const first = batch[0].start;
      const shared = [...this.requiredVariables, ...template.providerVariables];
      const own = batch.map(({ start }, n) => ({
        key: keys[n],
        options: firstStartOptions(start.metadata, {}, {}, start.repoName),
        start,
      }));
      const entries = (kind: "resources" | "data_sources", type: string) =>
        own.map(({ options, start }): FixtureEntry => {
          const values = (options.fixtures?.[kind]?.[type] ?? {}) as Record<string, unknown>;
          const match =
            kind === "resources"
              ? { repository: start.parameters.repository }
              : { name: start.repoName };
          return { match, values };
        });
      this.applies.push({ instances: batch.length });
      const applied = await this.session.harness.apply(modules.dir, {
        variables: Object.fromEntries(
          shared.filter((name) => name in first.variables).map((n) => [n, first.variables[n]]),
        ),
        workspace: { startCount: 1 },
        // Each instance answers for its own objects (below), not the batch for all of them.
        kubernetesApi: "report",
        fixtures: {
          resources: {
            devcontainerbuilder_build: entries("resources", "devcontainerbuilder_build"),
          },
          data_sources: {
            devcontainerbuilder_devcontainer: entries(
              "data_sources",
              "devcontainerbuilder_devcontainer",
            ),
            coder_parameter: own.flatMap(({ key, start }) =>
              Object.entries(start.parameters).map(([name, value]) => ({
                match: { name, styling: instanceStyling(key) },
                values: { value },
              })),
            ),
          },
        },
      });
      const warnings = attributeWarnings(
        applied.warnings,
        applied.state.check_results,
        keys.map((key) => modules.instanceAddress(key)),
      );
      const outputs = applied.outputs[INSTANCES_OUTPUT]?.value as
        Record<string, Record<string, unknown>> | undefined;
      return keys.map((key, n): PromiseSettledResult<PlanView> => {
        const prefix = `${modules.instanceAddress(key)}.`;
        const resources = applied.resources
          .filter((r) => r.address.startsWith(prefix))
          .map((r) => ({ ...r, address: r.address.slice(prefix.length) }));
        const violations = appliedViolations({ resources });
        if (violations.length > 0) {
          return { status: "rejected", reason: new KubernetesApiError(violations) };
        }
        return {
          status: "fulfilled",
          value: firstStartView({
            resources,
            outputs: instanceOutputs(outputs?.[key], template.outputs),
            warnings: warnings[n],
          }),
        };
      });
    } finally {
      modules.cleanup();
    }
  }

  /**
   * The session's template with the instance variable and the parameters' styling (made
   * once), and the provider variables and outputs it declares.
   */
  private batchTemplate(): BatchTemplate {
    if (this.template) return this.template;
    const dir = mkdtempSync(join(tmpdir(), "preview-batch-"));
    cpSync(this.session.templateDir, dir, { recursive: true });
    const parameters: string[] = [];
    const providerVariables = new Set<string>();
    const outputs: Record<string, boolean> = {};
    for (const file of readdirSync(dir).filter((f) => /\.tf(\.json)?$/.test(f))) {
      const text = readFileSync(join(dir, file), "utf8");
      if (file.endsWith(".tf")) {
        for (const m of text.matchAll(/^data\s+"coder_parameter"\s+"([^"]+)"/gm)) {
          parameters.push(m[1]);
        }
        if (/^\s*(output|provider)\s+"/m.test(text)) {
          throw new Error(`batched previews: ${file} declares an output or provider in HCL`);
        }
      } else {
        const config = JSON.parse(text) as {
          data?: { coder_parameter?: Record<string, unknown> };
          provider?: unknown;
          output?: Record<string, { sensitive?: boolean }>;
        };
        parameters.push(...Object.keys(config.data?.coder_parameter ?? {}));
        for (const m of JSON.stringify(config.provider ?? {}).matchAll(/var\.([A-Za-z0-9_-]+)/g)) {
          providerVariables.add(m[1]);
        }
        for (const [name, output] of Object.entries(config.output ?? {})) {
          outputs[name] = output.sensitive === true;
        }
      }
    }
    writeFileSync(
      join(dir, "harness-preview-instance.tf.json"),
      JSON.stringify({ variable: { [INSTANCE_VARIABLE]: { type: "string", default: "" } } }),
    );
    // An override file changes only the attributes it names (Terraform's override merging).
    writeFileSync(
      join(dir, "harness-preview-instance_override.tf.json"),
      JSON.stringify({
        data: {
          coder_parameter: Object.fromEntries(
            parameters.map((name) => [
              name,
              { styling: `\${jsonencode({ instance = var.${INSTANCE_VARIABLE} })}` },
            ]),
          ),
        },
      }),
    );
    this.template = { dir, providerVariables: [...providerVariables].sort(), outputs };
    return this.template;
  }
}

/** The `styling` of an instance's parameters, as jsonencode() writes it. */
function instanceStyling(key: string): string {
  return JSON.stringify({ instance: key });
}

/**
 * The first starts, in batches whose instances can be told apart: one set of provider
 * variables per batch, and per batch one repository name per repository URL and one
 * metadata per repository name (the build and the data source are configured with them).
 */
function groups(queued: readonly Queued[], providerVariables: readonly string[]): Queued[][] {
  const batches: {
    readonly providers: string;
    readonly names: Map<string, string>;
    readonly metadata: Map<string, string>;
    readonly members: Queued[];
  }[] = [];
  for (const item of queued) {
    const { start } = item;
    const providers = JSON.stringify(providerVariables.map((name) => start.variables[name]));
    const url = start.parameters.repository;
    const metadata = JSON.stringify(start.metadata);
    const fits = (batch: (typeof batches)[number]) =>
      url !== undefined &&
      batch.providers === providers &&
      (batch.names.get(url) ?? start.repoName) === start.repoName &&
      (batch.metadata.get(start.repoName) ?? metadata) === metadata;
    let batch = batches.find(fits);
    if (batch === undefined || url === undefined) {
      batch = { providers, names: new Map(), metadata: new Map(), members: [] };
      batches.push(batch);
    }
    if (url !== undefined) batch.names.set(url, start.repoName);
    batch.metadata.set(start.repoName, metadata);
    batch.members.push(item);
  }
  return batches.map((b) => b.members);
}

/**
 * Each instance's warnings, as an apply of it alone reports them: the failed checks the
 * state's check results give the instance, each as the diagnostic the batch printed for that
 * message, in the batch's order. Throws when a warning belongs to no instance this way.
 */
function attributeWarnings(
  warnings: readonly Diagnostic[],
  checkResults: unknown,
  instances: readonly string[],
): Diagnostic[][] {
  const failures = instances.map(() => [] as { check: string; message: string }[]);
  for (const result of Array.isArray(checkResults) ? (checkResults as CheckResult[]) : []) {
    for (const object of result.objects ?? []) {
      if (object.status !== "fail") continue;
      const n = instances.findIndex((i) => object.object_addr.startsWith(`${i}.`));
      if (n < 0) throw new Error(`a failed check outside the instances: ${object.object_addr}`);
      const check = object.object_addr.slice(instances[n].length + 1);
      for (const message of object.failure_messages ?? []) failures[n].push({ check, message });
    }
  }
  const attributed = new Set<number>();
  const result = failures.map((own) =>
    own
      .map(({ check, message }) => {
        const at = warnings.findIndex(
          (d) =>
            d.summary === CHECK_FAILED_SUMMARY &&
            d.detail === message &&
            (d.address === check || d.address?.startsWith(`${check}.`) === true),
        );
        if (at < 0) throw new Error(`no diagnostic for the failed ${check}: ${message}`);
        attributed.add(at);
        return at;
      })
      .sort((a, b) => a - b)
      .map((at) => warnings[at]),
  );
  if (attributed.size !== warnings.length) {
    throw new Error("the batch has warnings no instance's check results account for");
  }
  return result;
}

/** One entry of a state's `check_results`. */
interface CheckResult {
  readonly objects?: readonly {
    readonly object_addr: string;
    readonly status: string;
    readonly failure_messages?: readonly string[];
  }[];
}

/** An instance's outputs as root outputs of the template alone (state-resources.ts shape). */
function instanceOutputs(
  values: Record<string, unknown> | undefined,
  declared: Readonly<Record<string, boolean>>,
): Record<string, StateOutput> {
  if (values === undefined) throw new Error("the batch's outputs lack an instance");
  return Object.fromEntries(
    Object.entries(values)
      // A root output whose value is null is not kept in the state.
      .filter(([, value]) => value !== null)
      .map(([name, value]) => [name, { value, sensitive: declared[name] === true }]),
  );
}
