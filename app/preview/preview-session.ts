/**
 * The synthesized devcontainer template and a running plan harness that preview applies a
 * repository's first start with (app/preview/pipeline.ts, stage "template run"): the
 * template is synthesized into a temp dir, or reused from the synth cache, and applied with
 * the real Terraform CLI against the plan harness's mock providers
 * (packages/terraform-harness).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PREVIEW_OUTPUTS, type PlanView } from "./workspace-report";
import { SynthCache, type SynthCacheOptions } from "./synth-cache";
import { projectRoot } from "../../lib/core/project-root";
import { LOCALS_FILE, localNames } from "../../lib/private/locals-file";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";
import { rememberConfiguration } from "../../lib/private/stack-configuration";
import { useStackConfigurations } from "../harness-configuration";

/** What the mock service's build resource returns. */
const BUILD_VALUES = {
  id: "preview-build",
  commit: "0000000000000000000000000000000000000000",
  resolved_registry: "registry.invalid",
  resolved_tag: "preview",
};

let synthCache: SynthCache | undefined;

/**
 * Lets sessions reuse a template an earlier run synthesized from the same code and operator
 * configuration (app/preview/synth-cache.ts); `npm run preview` (scripts/preview.js) turns
 * it on, keyed by its bundle.
 */
export function useSynthCache(options: SynthCacheOptions): void {
  synthCache = new SynthCache(options);
}

/**
 * The synthesized devcontainer template and a running plan harness. One is enough for any
 * number of previews (tests share one); `close()` removes the temp dir.
 */
export class PreviewSession {
  private constructor(
    private readonly harness: TerraformHarness,
    private readonly outdir: string,
    readonly templateDir: string,
    /** Variables the synthesized template declares without a default. */
    readonly requiredVariables: readonly string[],
  ) {}

  /**
   * The operator configuration (coder-cdktf.jsonc) the template was synthesized with: its
   * path, null for none (the built-in defaults), undefined when the session was not told.
   */
  operatorConfig: string | null | undefined;

  static async start(configFile?: string): Promise<PreviewSession> {
    const session = await PreviewSession.synthesized(configFile);
    const { resolveConfigPath } = await import("../config-path");
    session.operatorConfig = resolveConfigPath(projectRoot(), configFile) ?? null;
    return session;
  }

  private static async synthesized(configFile?: string): Promise<PreviewSession> {
    const synthesize = async (outdir: string) => {
      // Loaded here, not with this module: the templates and cdktf are most of a load, and
      // sessions on a template synthesized already (the tests', the cache's) never need them.
      const { loadConfigFor } = await import("../load-config");
      const { synthTemplates } = await import("../synth");
      const config = loadConfigFor(configFile === undefined ? [] : ["--config", configFile]);
      const [template] = synthTemplates({ outdir, only: ["devcontainer"], config });
      return template;
    };
    const cache = synthCache;
    if (cache === undefined) return PreviewSession.open(synthesize);
    const { resolveConfigPath } = await import("../config-path");
    const entry = cache.entryFor(resolveConfigPath(projectRoot(), configFile));
    const kept = cache.read(entry);
    if (kept !== undefined) return PreviewSession.fromSynthesized(kept.dir, kept.model);
    return PreviewSession.open(async (outdir) => {
      const template = await synthesize(outdir);
      cache.write(entry, template);
      return template;
    });
  }

  /**
   * A session on a devcontainer template synthesized already (`dir`, read-only, and its
   * configuration `model`, as synth returns them): the tests' sessions, on the template the
   * jest run synthesized once (test/support/synth-template.ts), skip a synth each.
   */
  static async fromSynthesized(
    dir: string,
    model: Record<string, unknown>,
  ): Promise<PreviewSession> {
    return PreviewSession.open(async (outdir) => {
      const copy = join(outdir, "devcontainer");
      cpSync(dir, copy, { recursive: true });
      return { dir: copy, model };
    });
  }

  /** Starts the harness while `template` writes the template into the session's temp dir. */
  private static async open(
    template: (outdir: string) => Promise<{ dir: string; model: Record<string, unknown> }>,
  ): Promise<PreviewSession> {
    // Terraform's version check and the mock provider's start are child processes: they
    // run on the other core while this one synthesizes.
    const starting = TerraformHarness.start();
    const outdir = mkdtempSync(join(tmpdir(), "coder-cdktf-preview-"));
    try {
      const { dir, model } = await template(outdir);
      // The harness reads the folder's variables and module calls (main.tf) from its model,
      // also when the folder is a copy (a test's, the cache's).
      rememberConfiguration(dir, model);
      useStackConfigurations();
      const required = addPreviewOutputs(dir, model);
      return new PreviewSession(await starting, outdir, dir, required);
    } catch (error) {
      rmSync(outdir, { recursive: true, force: true });
      await starting.then(
        (harness) => harness.stop(),
        () => undefined,
      );
      throw error;
    }
  }

  async close(): Promise<void> {
    try {
      await this.harness.stop();
    } finally {
      rmSync(this.outdir, { recursive: true, force: true });
    }
  }

  /**
   * Applies a workspace's first start against the mock providers: the build is created,
   * the data source is read from its results (answering `metadata`) and every workspace
   * resource is created in the same run, as in Coder. Returns the resulting values in the
   * shape {@link readWorkspaceReport} reads.
   */
  async firstStart(
    metadata: Record<string, unknown>,
    variables: Readonly<Record<string, string>>,
    parameters: Readonly<Record<string, string>>,
    repoName: string,
  ): Promise<PlanView> {
    const applied = await this.harness.apply(this.templateDir, {
      variables,
      parameters,
      workspace: { startCount: 1 },
      fixtures: {
        resources: {
          devcontainerbuilder_build: {
            ...BUILD_VALUES,
            resolved_name: repoName,
            image: `${BUILD_VALUES.resolved_registry}/${repoName}:${BUILD_VALUES.resolved_tag}`,
          },
        },
        data_sources: { devcontainerbuilder_devcontainer: metadata },
      },
    });
    return {
      resourceChanges: applied.resources
        .filter((r) => r.mode === "managed")
        .map((r) => ({ address: r.address, after: r.values })),
      outputs: applied.outputs,
      warnings: applied.warnings,
    };
  }
}

/**
 * Exposes the two lists the template's checks print as outputs of preview's copy (marked
 * sensitive, since they derive from the data source), so they can be read whole, and the
 * Pod Security level the operator asks for (a template variable). Returns
 * the variables declared without a default. `model` is the configuration synth returned.
 */
function addPreviewOutputs(dir: string, model: Record<string, unknown>): string[] {
  const config = model as {
    locals?: Record<string, unknown>;
    variable?: Record<string, { default?: unknown }>;
  };
  // The locals synth shipped: one that carries no decision of its own is folded into its
  // readers (lib/private/inline-locals.ts), so the model's names are not all in locals.tf.
  const localsFile = join(dir, LOCALS_FILE);
  const locals = new Set(
    existsSync(localsFile) ? localNames(readFileSync(localsFile, "utf8")) : [],
  );
  const output: Record<string, unknown> = {};
  const expose = (name: string, local: string) => {
    if (locals.has(local)) {
      output[name] = { value: `\${local.${local}}`, sensitive: true };
    }
  };
  expose(PREVIEW_OUTPUTS.warnings, "all_warnings");
  expose(PREVIEW_OUTPUTS.missingVariables, "missing_variables");
  if (config.variable?.pod_security_level !== undefined) {
    output[PREVIEW_OUTPUTS.podSecurityRequested] = { value: `\${var.pod_security_level}` };
  }
  writeFileSync(join(dir, "preview-outputs.tf.json"), JSON.stringify({ output }, null, 2));
  return Object.entries(config.variable ?? {})
    .filter(([, v]) => !("default" in v))
    .map(([name]) => name);
}
