/**
 * Preview as one pipeline, each stage a function that takes what the one before returned:
 * read (the devcontainer.json and where it lies) → metadata (what devcontainer-builder's
 * `GET /devcontainer` would answer) → template run (the template's first start, applied by
 * the plan harness) → report → render. {@link previewWorkspace} runs them in order;
 * scripts/commands/run-preview.ts reads the command line and calls it.
 */
import { basename } from "node:path";
import {
  displayPath,
  locateConfiguration,
  readDevcontainerFile,
  type ConfigurationLocation,
  type DevcontainerFile,
  type JsoncSyntaxError,
} from "./devcontainer-file";
import {
  deriveMetadata,
  imageSource,
  type DerivedMetadata,
  type MetadataAssumptions,
} from "./devcontainer-metadata";
import { jsonText, renderJson, renderText, type PreviewReport } from "./render-report";
import { quoteAddHostOptions } from "./run-args";
import { dockerNotes } from "./docker-notes";
import { inferImageUser } from "./image-user";
import { HOST_SESSION_VARIABLES, skippedEnvScriptNote, workspaceNotes } from "./workspace-notes";
import { readWorkspaceReport, type WorkspaceReport } from "./workspace-report";
import { configurationNotes, noImageMessage, syntaxErrorLines } from "./configuration-notes";
import { dockerfileNotes } from "./dockerfile-notes";
import { PreviewSession } from "./preview-session";

export const EXIT_USAGE = 2;
export const EXIT_FAILED = 1;

/** Values for the template variables that have no default (the plan needs some). */
const PLACEHOLDER_VARIABLES: Readonly<Record<string, string>> = {
  namespace: "coder-workspaces",
  devcontainer_builder_endpoint: "http://devcontainer-builder.invalid.svc:8080",
};

/** A preview's command line, read (scripts/commands/run-preview.ts). */
export interface PreviewArgs {
  readonly target: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly parameters: Readonly<Record<string, string>>;
  readonly json: boolean;
  readonly config?: string;
  /** What only the service knows, given by the user (--remote-user, --uid, --gid). */
  readonly service: MetadataAssumptions;
}

/** Where output goes (tests pass buffers). */
export interface PreviewIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Stage 1's result: a devcontainer.json that names an image, or none at all. */
export interface RepositoryRead {
  readonly found: Extract<DevcontainerFile, { kind: "config" | "missing" }>;
  /** The file's contents; empty when there is none. */
  readonly config: Record<string, unknown>;
  /** The file previewed, null for none. */
  readonly file: string | null;
  readonly where: ConfigurationLocation;
  /** The checkout folder's name as written (the template's repo_name). */
  readonly repoName: string;
  /** The image's name, a registry path: lowercased. */
  readonly imageName: string;
}

/** Stage 2's result. */
export interface WorkspaceMetadata {
  readonly derived: DerivedMetadata;
  /** What preview cannot know, first the fallback image's when there is no file. */
  readonly unknowns: readonly string[];
  /**
   * True when nothing preview can read names the user (no remoteUser or containerUser, no
   * --remote-user, no Dockerfile USER or image of known metadata): the image decides it at
   * build time, and the plan's root is a placeholder.
   */
  readonly userDecidedAtBuild: boolean;
}

/** Stage 3's result: what the template's first start gave. */
export interface TemplateRun {
  readonly variables: Readonly<Record<string, string>>;
  readonly parameters: Readonly<Record<string, string>>;
  readonly workspace: WorkspaceReport;
  readonly operatorConfig: string | null | undefined;
}

/** The Dev Containers CLI's folder variables for the repository. */
function folderVariables(repository: string, workspaceFolder?: string) {
  return {
    localWorkspaceFolder: repository,
    containerWorkspaceFolder: workspaceFolder ?? `/workspaces/${basename(repository)}`,
  };
}

/**
 * Stage 1, read: the devcontainer.json `args.target` names (or the one its folder holds).
 * A file preview cannot go on with is reported here; the exit status is returned instead.
 */
export function readRepository(args: PreviewArgs, io: PreviewIo): RepositoryRead | number {
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
    reportNoImage(found.file, found.syntaxErrors, args, io);
    return EXIT_FAILED;
  }
  const where = locateConfiguration(found);
  const repoName = basename(where.repository).replace(/[^A-Za-z0-9._@,~-]/g, "-") || "repository";
  return {
    found,
    config,
    file: found.kind === "config" ? found.file : null,
    where,
    repoName,
    imageName: repoName.toLowerCase().replace(/[^a-z0-9._-]/g, "-"),
  };
}

/** A configuration that names no image source: the build would fail, as the CLI's does. */
function reportNoImage(
  file: string,
  syntaxErrors: readonly JsoncSyntaxError[],
  args: PreviewArgs,
  io: PreviewIo,
): void {
  const where = displayPath(file);
  io.stderr(noImageMessage(where));
  if (syntaxErrors.length > 0) {
    io.stderr(
      "The file has syntax errors, which may hide the image (the CLI reads past them):\n" +
        syntaxErrorLines(where, syntaxErrors),
    );
  }
  if (args.json) {
    const missing = ["image", "build.dockerfile", "dockerFile", "dockerComposeFile"];
    io.stdout(jsonText({ file: where, error: "no image", missing }));
  }
}

/** Stage 2, metadata: what the service's `GET /devcontainer` would answer for the file. */
export function workspaceMetadata(read: RepositoryRead, args: PreviewArgs): WorkspaceMetadata {
  const { found, config, file, where } = read;
  // Without a user in the file, the image decides: what a local Dockerfile or a well-known
  // base image says, labelled as assumed (--remote-user overrides it).
  const inferred =
    args.service.remoteUser === undefined
      ? inferImageUser(config, file, folderVariables(where.repository))
      : undefined;
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
  const userDecidedAtBuild =
    args.service.remoteUser === undefined &&
    inferred === undefined &&
    typeof config.remoteUser !== "string" &&
    typeof config.containerUser !== "string";
  return { derived, unknowns, userDecidedAtBuild };
}

/** Stage 3, template run: the workspace's first start on `session`'s template. */
export async function runTemplate(
  session: PreviewSession,
  read: RepositoryRead,
  metadata: WorkspaceMetadata,
  args: PreviewArgs,
): Promise<TemplateRun> {
  const variables: Record<string, string> = {};
  for (const name of session.requiredVariables) {
    if (PLACEHOLDER_VARIABLES[name] !== undefined) variables[name] = PLACEHOLDER_VARIABLES[name];
  }
  Object.assign(variables, args.variables);
  const parameters = {
    repository: `https://git.example.com/${read.repoName}.git`,
    ...args.parameters,
  };
  const plan = await session.firstStart(
    metadata.derived.values,
    variables,
    parameters,
    read.imageName,
  );
  return {
    variables,
    parameters,
    workspace: readWorkspaceReport(plan),
    operatorConfig: session.operatorConfig,
  };
}

/** Stage 4, report: the notes first, then what the workspace got. */
export function previewReport(
  read: RepositoryRead,
  metadata: WorkspaceMetadata,
  run: TemplateRun,
): PreviewReport {
  const { found, config, file, where } = read;
  const { derived } = metadata;
  const { workspace } = run;
  const workspaceFolder = workspace.user.workspaceFolder ?? undefined;
  const notes = [
    ...configurationNotes(found, where),
    ...dockerfileNotes(found, config, where.repository, workspaceFolder),
    ...workspaceNotes(config),
    ...dockerNotes(config, file, folderVariables(where.repository, workspaceFolder)),
    ...workspace.skippedEnvScripts.map(skippedEnvScriptNote),
  ];
  return {
    operatorConfig:
      run.operatorConfig === undefined
        ? undefined
        : run.operatorConfig === null
          ? null
          : displayPath(run.operatorConfig),
    devcontainerFile: found.kind === "config" ? displayPath(found.file) : null,
    serviceReads: where.serviceReads,
    variables: run.variables,
    parameters: withVariableNamesOnly(run.parameters),
    notes,
    lifecycleHooks: workspace.lifecycle.map((c) => c.hook),
    extensions: derived.values.extensions as string[],
    emptyUnlessSet: workspace.missingVariables.filter((n) => HOST_SESSION_VARIABLES.has(n)),
    unknowns: metadata.unknowns,
    assumptions: derived.assumptions,
    userDecidedAtBuild: metadata.userDecidedAtBuild,
    workspace: {
      ...workspace,
      warnings: quoteAddHostOptions(workspace.warnings, derived.hostAliasSources),
    },
  };
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

/** Stage 5, render: the report as text or JSON on stdout. */
export function renderPreview(report: PreviewReport, args: PreviewArgs, io: PreviewIo): void {
  io.stdout(args.json ? renderJson(report) : renderText(report));
}

/**
 * One preview of `args`, its stages in order; returns the exit status. Without `session`, one
 * is started (a synth) and closed at the end.
 */
export async function previewWorkspace(
  args: PreviewArgs,
  io: PreviewIo,
  session?: PreviewSession,
): Promise<number> {
  const read = readRepository(args, io);
  if (typeof read === "number") return read;
  const metadata = workspaceMetadata(read, args);
  const own = session ?? (await PreviewSession.start(args.config));
  try {
    const run = await runTemplate(own, read, metadata, args);
    renderPreview(previewReport(read, metadata, run), args, io);
    return 0;
  } finally {
    if (session === undefined) await own.close();
  }
}
