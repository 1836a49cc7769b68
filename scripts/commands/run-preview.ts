// `npm run preview -- <devcontainer.json | repository folder> [--var k=v]… [--param k=v]…
//                     [--remote-user name] [--uid n] [--gid n] [--json] [--config coder-cdktf.jsonc]`
//
// Shows what the devcontainer template would give a repository's workspace, before any
// build: the repository's devcontainer.json is mapped to what devcontainer-builder's
// `GET /devcontainer` would answer (app/preview/devcontainer-metadata.ts), the template is
// synthesized into a temp dir and its first start is applied with the real Terraform CLI
// against the plan harness's mock providers (packages/terraform-harness; preview is its one user outside
// the tests), and the resulting pod, volume, apps and warnings are printed. Every number is
// Terraform's.
//
// Run through scripts/preview.js (a plain node launcher that runs it bundled).
import { cpSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import {
  DEVCONTAINER_LOCATIONS,
  displayPath,
  isWithin,
  locateConfiguration,
  readDevcontainerFile,
  type ConfigurationLocation,
  type DevcontainerFile,
  type JsoncSyntaxError,
} from "../../app/preview/devcontainer-file";
import {
  deriveMetadata,
  imageSource,
  type MetadataAssumptions,
} from "../../app/preview/devcontainer-metadata";
import {
  jsonText,
  printable,
  renderJson,
  renderText,
  type PreviewReport,
} from "../../app/preview/render-report";
import { quoteAddHostOptions } from "../../app/preview/run-args";
import { substituteFolderVariables } from "../../app/preview/folder-variables";
import { dockerNotes } from "../../app/preview/docker-notes";
import { inferImageUser } from "../../app/preview/image-user";
import {
  HOST_SESSION_VARIABLES,
  skippedEnvScriptNote,
  workspaceNotes,
} from "../../app/preview/workspace-notes";
import {
  PREVIEW_OUTPUTS,
  readWorkspaceReport,
  type PlanView,
} from "../../app/preview/workspace-report";
import { parseCommandLine, UsageError } from "../../app/cli-args";
import { SynthCache, type SynthCacheOptions } from "../../app/preview/synth-cache";
import { projectRoot } from "../../lib/core/project-root";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";

export { skipCdktfCreationStacks } from "../../lib/private/creation-stacks";

const USAGE =
  "usage: npm run preview -- <devcontainer.json | repository folder> [--var name=value]... " +
  "[--param name=value]... [--remote-user <name>] [--uid <n>] [--gid <n>] [--json] " +
  "[--config <file.jsonc>]";

const EXIT_USAGE = 2;
const EXIT_FAILED = 1;

/** Values for the template variables that have no default (the plan needs some). */
const PLACEHOLDER_VARIABLES: Readonly<Record<string, string>> = {
  namespace: "coder-workspaces",
  devcontainer_builder_endpoint: "http://devcontainer-builder.invalid.svc:8080",
};

/** What the mock service's build resource returns. */
const BUILD_VALUES = {
  id: "preview-build",
  commit: "0000000000000000000000000000000000000000",
  resolved_registry: "registry.invalid",
  resolved_tag: "preview",
};

export interface PreviewArgs {
  readonly target: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly parameters: Readonly<Record<string, string>>;
  readonly json: boolean;
  readonly config?: string;
  /** What only the service knows, given by the user (--remote-user, --uid, --gid). */
  readonly service: MetadataAssumptions;
}

export { UsageError };

export function parseArgs(argv: readonly string[]): PreviewArgs {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      var: { type: "string", multiple: true, default: [] },
      param: { type: "string", multiple: true, default: [] },
      json: { type: "boolean", default: false },
      config: { type: "string" },
      "remote-user": { type: "string" },
      uid: { type: "string" },
      gid: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    USAGE,
  );
  if (values.help) throw new UsageError(USAGE);
  const pairs = (flag: string, given: readonly string[]) => {
    const out: Record<string, string> = {};
    for (const value of given) {
      const at = value.indexOf("=");
      if (at <= 0) throw new UsageError(`--${flag} ${value}: expected name=value\n${USAGE}`);
      out[value.slice(0, at)] = value.slice(at + 1);
    }
    return out;
  };
  if (positionals.length !== 1) {
    throw new UsageError(
      `${positionals.length === 0 ? "name a devcontainer.json or a repository folder" : `one target at a time (got ${positionals.join(", ")})`}\n${USAGE}`,
    );
  }
  const config = values.config;
  const service: { remoteUser?: string; uid?: number; gid?: number } = {};
  const remoteUser = values["remote-user"];
  if (remoteUser !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(remoteUser))
      throw new UsageError(`--remote-user ${remoteUser}: expected a user name\n${USAGE}`);
    service.remoteUser = remoteUser;
  }
  for (const flag of ["uid", "gid"] as const) {
    const value = values[flag];
    if (value === undefined) continue;
    if (!/^\d{1,10}$/.test(value) || Number(value) > 2 ** 31 - 1)
      throw new UsageError(`--${flag} ${value}: expected a number from 0 to 2147483647\n${USAGE}`);
    service[flag] = Number(value);
  }
  return {
    target: positionals[0],
    variables: pairs("var", values.var),
    parameters: pairs("param", values.param),
    json: values.json === true,
    ...(config ? { config } : {}),
    service,
  };
}

/** Where output goes (tests pass buffers). */
export interface PreviewIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

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
    const { resolveConfigPath } = await import("../../app/config-path");
    session.operatorConfig = resolveConfigPath(projectRoot(), configFile) ?? null;
    return session;
  }

  private static async synthesized(configFile?: string): Promise<PreviewSession> {
    const synthesize = async (outdir: string) => {
      // Loaded here, not with this module: the templates and cdktf are most of a load, and
      // sessions on a template synthesized already (the tests', the cache's) never need them.
      const { loadConfigFor } = await import("../../app/load-config");
      const { synthTemplates } = await import("../../app/synth");
      const config = loadConfigFor(configFile === undefined ? [] : ["--config", configFile]);
      const [template] = synthTemplates({ outdir, only: ["devcontainer"], config });
      return template;
    };
    const cache = synthCache;
    if (cache === undefined) return PreviewSession.open(synthesize);
    const { resolveConfigPath } = await import("../../app/config-path");
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
  const locals = config.locals ?? {};
  const output: Record<string, unknown> = {};
  const expose = (name: string, local: string) => {
    if (local in locals) output[name] = { value: `\${local.${local}}`, sensitive: true };
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

/**
 * The parameters as printed: the Dev Container variables text can hold tokens, so only the
 * names it sets are shown.
 */
function withVariableNamesOnly(
  parameters: Readonly<Record<string, string>>,
): Record<string, string> {
  const text = parameters.devcontainer_variables;
  if (text === undefined) return { ...parameters };
  const names = text
    .split("\n")
    .map((line) => line.split("=")[0].trim())
    .filter((name) => name !== "" && !name.startsWith("#"));
  return { ...parameters, devcontainer_variables: `(values hidden) ${names.join(", ")}` };
}

/** `  <file>:<line>:<column>: <code>` lines. */
function syntaxErrorLines(where: string, errors: readonly JsoncSyntaxError[]): string {
  return errors.map((e) => `  ${where}:${e.line}:${e.column}: ${e.code}\n`).join("");
}

/** What preview says about which file the service reads, first in the report. */
function configurationNotes(found: DevcontainerFile, where: ConfigurationLocation): string[] {
  const notes: string[] = [];
  if (found.kind === "config" && found.invalidUtf8 === true) {
    notes.push(
      `${displayPath(found.file)} holds bytes that are not UTF-8; they were read as U+FFFD (\u{fffd}), ` +
        "as the Dev Containers CLI reads them, so the values around them are not what the file's " +
        "author meant.",
    );
  }
  if (found.kind === "config" && found.syntaxErrors.length > 0) {
    const file = displayPath(found.file);
    notes.push(
      `${file} has JSONC syntax errors, which the Dev Containers CLI (run by the service) reads ` +
        "past: it uses what the parser recovers, as this preview does. Fix them, or the file " +
        "may not mean what it says: " +
        found.syntaxErrors.map((e) => `${file}:${e.line}:${e.column} ${e.code}`).join(", ") +
        ".",
    );
  }
  const standard = DEVCONTAINER_LOCATIONS.join(" or ");
  if (where.previewed !== null && !DEVCONTAINER_LOCATIONS.includes(where.previewed)) {
    notes.push(
      `devcontainer-builder reads ${standard}, not ${where.previewed}, and cannot be told ` +
        "another path (the build has no input for one). " +
        (where.serviceReads !== null
          ? `This repository's workspace gets ${where.serviceReads}; preview it to see that workspace. `
          : "This repository has neither, so its workspace gets the service's fallback image. ") +
        `To use ${where.previewed}, move it to .devcontainer/devcontainer.json (paths in it, ` +
        "such as build.dockerfile and build.context, are relative to the file).",
    );
  } else if (found.kind === "missing" && where.subfolderConfigurations.length > 0) {
    notes.push(
      `devcontainer-builder reads only ${standard}; it never reads ` +
        `${where.subfolderConfigurations.join(", ")}. Preview one with its path; to give the ` +
        "workspace one of them, move it to .devcontainer/devcontainer.json.",
    );
  }
  return notes;
}

/**
 * A Dockerfile the service could not find in its clone: missing, no file, or outside the
 * repository (`../../etc/passwd`). Its path is relative to the devcontainer.json, as the Dev
 * Containers CLI reads it, after the CLI's folder variables are substituted
 * (`${localWorkspaceFolder}/.devcontainer/Dockerfile`); `workspaceFolder` is the workspace
 * folder the template planned. Preview never reads the file.
 */
export function dockerfileNotes(
  found: DevcontainerFile,
  config: Record<string, unknown>,
  repository: string,
  workspaceFolder: string = `/workspaces/${basename(repository)}`,
): string[] {
  const source = imageSource(config);
  if (found.kind !== "config" || source?.kind !== "dockerfile") return [];
  const dockerfile = substituteFolderVariables(source.dockerfile, {
    localWorkspaceFolder: repository,
    containerWorkspaceFolder: workspaceFolder,
  });
  const path = resolve(dirname(resolve(found.file)), dockerfile);
  const what = !isWithin(path, repository)
    ? "lies outside the repository, so the service's clone has no such file"
    : !existsSync(path)
      ? "is not in the repository"
      : !statSync(path).isFile()
        ? "is not a file"
        : undefined;
  return what === undefined
    ? []
    : [
        `${source.property} ${JSON.stringify(source.dockerfile)} (${displayPath(path)}) ${what}: ` +
          "the image build fails and the workspace never starts.",
      ];
}

/** The error for a configuration that names no image source, as the Dev Containers CLI has it. */
function noImageMessage(file: string): string {
  return (
    `preview: ${file} names no image: it has no "image", no "build.dockerfile" (or the older ` +
    '"dockerFile") and no "dockerComposeFile". The Dev Containers CLI refuses such a file ' +
    '("No image information specified in devcontainer.json"), so devcontainer-builder\'s ' +
    "build fails and the workspace never starts. Add one of them.\n"
  );
}

/** One preview; returns the exit status. */
export async function runPreview(
  argv: readonly string[],
  terminal: PreviewIo,
  session?: PreviewSession,
): Promise<number> {
  // Messages quote the repository's paths and values: what a terminal acts on is escaped,
  // line by line (the report's tables do the same, app/preview/render-report.ts).
  const io: PreviewIo = {
    stdout: terminal.stdout,
    stderr: (text) => terminal.stderr(text.split("\n").map(printable).join("\n")),
  };
  let args: PreviewArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`${error.message}\n`);
    return EXIT_USAGE;
  }
  let found: DevcontainerFile;
  try {
    found = readDevcontainerFile(args.target);
  } catch (error) {
    io.stderr(`preview: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  if (found.kind === "unreadable") {
    const where = displayPath(found.file);
    io.stderr(`preview: ${where} ${found.message}.\n`);
    if (args.json) io.stdout(jsonText({ file: where, error: found.message }));
    return EXIT_FAILED;
  }
  if (found.kind === "invalid") {
    const where = displayPath(found.file);
    io.stderr(
      `preview: ${where}: ${found.message}, which the Dev Containers CLI refuses; the build would fail` +
        (found.errors.length > 0 ? ". Its syntax errors:\n" : "\n") +
        syntaxErrorLines(where, found.errors),
    );
    if (args.json) io.stdout(jsonText({ file: where, errors: found.errors }));
    return EXIT_FAILED;
  }

  const config = found.kind === "config" ? found.config : {};
  if (found.kind === "config" && imageSource(config) === undefined) {
    const where = displayPath(found.file);
    io.stderr(noImageMessage(where));
    if (found.syntaxErrors.length > 0) {
      io.stderr(
        "The file has syntax errors, which may hide the image (the CLI reads past them):\n" +
          syntaxErrorLines(where, found.syntaxErrors),
      );
    }
    if (args.json) {
      const missing = ["image", "build.dockerfile", "dockerFile", "dockerComposeFile"];
      io.stdout(jsonText({ file: where, error: "no image", missing }));
    }
    return EXIT_FAILED;
  }
  const where = locateConfiguration(found);
  const file = found.kind === "config" ? found.file : null;
  const folders = (workspaceFolder?: string) => ({
    localWorkspaceFolder: where.repository,
    containerWorkspaceFolder: workspaceFolder ?? `/workspaces/${basename(where.repository)}`,
  });
  // Without a user in the file, the image decides: what a local Dockerfile or a well-known
  // base image says, labelled as assumed (--remote-user overrides it).
  const inferred =
    args.service.remoteUser === undefined ? inferImageUser(config, file, folders()) : undefined;
  const derived = deriveMetadata(
    config,
    inferred === undefined
      ? args.service
      : { ...args.service, remoteUser: inferred.user, remoteUserFrom: inferred.from },
  );
  const unknowns = [...derived.unknowns];
  if (found.kind === "missing") {
    unknowns.unshift(
      `No ${found.looked.join(" or ")} in ${displayPath(found.folder)}: the service builds its ` +
        "fallback image, whose metadata is unknown here; planned with empty metadata.",
    );
  }
  // The checkout folder keeps the repository's name as written (the template's repo_name);
  // only the image's name, a registry path, is lowercased.
  const repoName = basename(where.repository).replace(/[^A-Za-z0-9._@,~-]/g, "-") || "repository";
  const imageName = repoName.toLowerCase().replace(/[^a-z0-9._-]/g, "-");

  const own = session ?? (await PreviewSession.start(args.config));
  try {
    const variables: Record<string, string> = {};
    for (const name of own.requiredVariables) {
      if (PLACEHOLDER_VARIABLES[name] !== undefined) variables[name] = PLACEHOLDER_VARIABLES[name];
    }
    Object.assign(variables, args.variables);
    const parameters = {
      repository: `https://git.example.com/${repoName}.git`,
      ...args.parameters,
    };
    const plan = await own.firstStart(derived.values, variables, parameters, imageName);
    const workspace = readWorkspaceReport(plan);
    const notes = [
      ...configurationNotes(found, where),
      ...dockerfileNotes(
        found,
        config,
        where.repository,
        workspace.user.workspaceFolder ?? undefined,
      ),
      ...workspaceNotes(config),
      ...dockerNotes(config, file, folders(workspace.user.workspaceFolder ?? undefined)),
      ...workspace.skippedEnvScripts.map(skippedEnvScriptNote),
    ];
    const report: PreviewReport = {
      operatorConfig:
        own.operatorConfig === undefined
          ? undefined
          : own.operatorConfig === null
            ? null
            : displayPath(own.operatorConfig),
      devcontainerFile: found.kind === "config" ? displayPath(found.file) : null,
      serviceReads: where.serviceReads,
      variables,
      parameters: withVariableNamesOnly(parameters),
      notes,
      lifecycleHooks: workspace.lifecycle.map((c) => c.hook),
      extensions: derived.values.extensions as string[],
      emptyUnlessSet: workspace.missingVariables.filter((n) => HOST_SESSION_VARIABLES.has(n)),
      unknowns,
      assumptions: derived.assumptions,
      workspace: {
        ...workspace,
        warnings: quoteAddHostOptions(workspace.warnings, derived.hostAliasSources),
      },
    };
    io.stdout(args.json ? renderJson(report) : renderText(report));
    return 0;
  } finally {
    if (session === undefined) await own.close();
  }
}
