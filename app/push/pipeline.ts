/**
 * `npm run push` as one pipeline, each stage a function that takes what the ones before
 * returned: find the CLI → synthesize → check the variables → name the version → check the
 * upgrade → lock the providers (app/push/provider-lock.ts) → plan the commands
 * (app/template-push.ts) → publish. {@link pushTemplate} runs them
 * in order; scripts/commands/push.ts reads the command line and calls it.
 */
import * as fs from "fs";
import * as path from "path";
import { UsageError } from "../cli-args";
import { announceCoderVersion, findOnPath, runCoderStep, shellQuote } from "../coder-cli";
import { projectRoot } from "../../lib/core/project-root";
import { planPush, TERRAFORM_LOCK_FILE, type PushPlan } from "../template-push";
import { templateIdFor } from "../template-id";
import { loadConfigFor } from "../load-config";
import { checkUpgradeBeforePush } from "../upgrade/push-hook";
import { synthTemplates, type SynthesizedTemplate } from "../synth";
import {
  checkVariablesFile,
  requiredWithoutValue,
  VariablesFileError,
  type SynthesizedVariable,
} from "../variables-file";
import { defaultVersionMessage, defaultVersionName, gitVersionOf } from "../git-version";
import {
  LOCK_PLATFORMS,
  planProviderLock,
  UNPUBLISHED_PROVIDERS,
  writeProviderLock,
} from "./provider-lock";

/** Exit status when `coder` is missing, as a shell reports "command not found". */
export const EXIT_NO_CLI = 127;

/** A push's command line, read (scripts/commands/push.ts). */
export interface PushArgs {
  readonly template: string;
  readonly dryRun: boolean;
  readonly variablesFile?: string;
  readonly message?: string;
  readonly name?: string;
  readonly activate: boolean;
  readonly checkUpgrade: boolean;
  readonly allowDataLoss: boolean;
  readonly config?: string;
  readonly outdir?: string;
  /**
   * A provider mirror for the lock file: a folder in Terraform's mirror layout, or an
   * https:// URL of a network mirror, consulted instead of the registry. @default the registry
   */
  readonly providersMirror?: string;
  /** The command's usage text, appended to usage errors. */
  readonly usage: string;
}

/** Where output goes. */
export interface PushIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Stage 2's result: the template synthesized, with the configuration it came from. */
export interface SynthesizedPush {
  readonly config: ReturnType<typeof loadConfigFor>;
  readonly id: string;
  readonly template: SynthesizedTemplate;
}

/** Stage 6's result: whether the pushed folder has a lock file, and what a dry run prints. */
export interface ProviderLockState {
  readonly hasLockFile: boolean;
  /** Why there is none, one line (the push passes --ignore-lockfile). @default the generic note */
  readonly note?: string;
  /** The lock command a dry run prints before the coder commands. @default none */
  readonly dryRunCommand?: string;
}

/** Stage 4's result; undefined where Coder names the version or writes its message. */
export interface VersionNaming {
  readonly versionName?: string;
  readonly message?: string;
}

/**
 * Stage 1, find the CLI: its path, undefined for a dry run without one, or the exit status
 * when a push needs it and it is missing. First: no point synthesizing for a push that
 * cannot run.
 */
export function findCoderCli(args: PushArgs, io: PushIo): string | undefined | number {
  const coder = findOnPath("coder");
  if (coder === undefined && !args.dryRun) {
    io.stderr(
      "push: the Coder CLI (`coder`) is not on PATH. Install it (your deployment serves it at " +
        "<CODER_URL>/bin/, or see https://coder.com/docs/install/cli), log in with " +
        "`coder login <CODER_URL>`, and run this again. `--dry-run` prints the commands without it.\n",
    );
    return EXIT_NO_CLI;
  }
  return coder;
}

/** The operator's variables file, absolute; a usage error when it is not there. */
export function resolveVariablesFile(args: PushArgs): string | undefined {
  if (args.variablesFile === undefined) return undefined;
  const variablesFile = path.resolve(args.variablesFile);
  if (!fs.existsSync(variablesFile)) {
    throw new UsageError(`--variables-file ${args.variablesFile}: file not found`);
  }
  return variablesFile;
}

/** The operator's provider mirror: a folder must exist (a URL is Terraform's to reach). */
export function checkProvidersMirror(args: PushArgs): void {
  const mirror = args.providersMirror;
  if (mirror === undefined || /^https:\/\//.test(mirror)) return;
  if (/^[a-z]+:\/\//i.test(mirror)) {
    throw new UsageError(`--providers-mirror ${mirror}: a network mirror must be an https:// URL`);
  }
  if (!fs.existsSync(mirror) || !fs.statSync(mirror).isDirectory()) {
    throw new UsageError(`--providers-mirror ${mirror}: no such folder`);
  }
}

/** Stage 2, synthesize: the one template named, with the operator's configuration. */
export function synthesizeForPush(args: PushArgs, io: PushIo): SynthesizedPush {
  const config = loadConfigFor(args.config === undefined ? [] : ["--config", args.config]);
  const id = templateIdFor(args.template, config?.templates, args.usage);
  const outdir = args.outdir ?? process.env.CDKTF_OUTDIR ?? path.join(projectRoot(), "cdktf.out");
  const [template] = synthTemplates({ outdir, only: [id], config });
  io.stderr(`synthesized ${template.dir}\n`);
  return { config, id, template };
}

/**
 * Stage 3, check the variables against the template before anything runs: returns the names
 * the variables file sets. A required variable without a value stops a push (a usage error)
 * and is a note in a dry run.
 */
export function checkPushVariables(
  { template, id }: SynthesizedPush,
  args: PushArgs,
  variablesFile: string | undefined,
  io: PushIo,
): readonly string[] {
  const variables = (template.model.variable ?? {}) as Record<string, SynthesizedVariable>;
  const configured = Object.keys(template.configuredVariables);
  try {
    if (variablesFile !== undefined) {
      const checked = checkVariablesFile(
        args.variablesFile!,
        fs.readFileSync(variablesFile, "utf8"),
        variables,
        configured,
      );
      checkVariablesTogether(template, id, args.variablesFile!, checked.values);
      return checked.names;
    }
    const missing = requiredWithoutValue(variables, configured);
    if (missing.length > 0 && args.dryRun) {
      // A dry run shows the commands anyway; the push itself would stop here.
      io.stderr(
        `note: ${template.name} has required variables without a value: ${missing.join(", ")}; ` +
          `a push stops here until templates.${id}.variables or --variables-file sets them\n`,
      );
    } else if (missing.length > 0) {
      throw new VariablesFileError(
        `${template.name}: required variable${missing.length > 1 ? "s" : ""} without a value: ` +
          `${missing.join(", ")}. Set ${missing.length > 1 ? "them" : "it"} under templates.${id}.variables ` +
          `in coder-cdktf.jsonc, or in a file given with --variables-file.`,
      );
    }
    return [];
  } catch (e) {
    if (e instanceof VariablesFileError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * The rules across variables (TemplateVariable `crossRules`) on the values this push sends:
 * the variables file's, else the configuration's (the synthesized defaults). Synth checked
 * the configuration's alone; this adds the file. Values are never shown: the file is where
 * secrets go.
 */
export function checkVariablesTogether(
  template: SynthesizedTemplate,
  id: string,
  file: string,
  fromFile: Readonly<Record<string, unknown>>,
): void {
  const variables = (template.model.variable ?? {}) as Record<string, SynthesizedVariable>;
  const valueOf = (name: string): unknown =>
    Object.hasOwn(fromFile, name) ? fromFile[name] : variables[name]?.default;
  for (const [name, rules] of Object.entries(template.crossRules)) {
    const value = valueOf(name);
    const broken = value === undefined ? undefined : rules.find((r) => !r.test(value, valueOf));
    if (broken === undefined) continue;
    throw new VariablesFileError(
      `${template.name}: ${name} (set ${Object.hasOwn(fromFile, name) ? `in ${file}` : `by templates.${id}.variables`}) ` +
        `must be ${broken.requirement}. Set what it needs in ${file}, or under templates.${id}.variables in coder-cdktf.jsonc.`,
    );
  }
}

/**
 * Stage 4, name the version: its name and message as given, else from the commit the
 * templates come from.
 */
export function nameVersion(
  { template }: SynthesizedPush,
  args: PushArgs,
  io: PushIo,
): VersionNaming {
  const git =
    args.name !== undefined && args.message !== undefined ? undefined : gitVersionOf(projectRoot());
  const versionName =
    args.name ?? (git === undefined ? undefined : defaultVersionName(git, template.dir));
  const message = args.message ?? (git === undefined ? undefined : defaultVersionMessage(git));
  if (git === undefined && (args.name === undefined || args.message === undefined)) {
    io.stderr(
      `note: ${projectRoot()} is not a git checkout (or git is missing): ` +
        `Coder names the version and writes its message itself\n`,
    );
  } else if (git?.dirty === true && args.name === undefined) {
    io.stderr(
      `note: the checkout has uncommitted changes: the version is named ${versionName} ` +
        `(commit ${git.shortSha}, marked dirty, with a digest of what is pushed)\n`,
    );
  }
  if (!args.activate && versionName === undefined) {
    throw new UsageError(
      `--activate=false needs a version name to promote later: give --name <version>\n${args.usage}`,
    );
  }
  return { versionName, message };
}

/**
 * Stage 6, lock the providers: writes `.terraform.lock.hcl` into the folder pushed, so Coder
 * caches the providers per template version, unless the template ships one. A dry run only
 * plans the command; a lock that fails is one line, and the push goes on without it.
 */
export function lockProviders(
  { template, config, id }: SynthesizedPush,
  args: PushArgs,
  io: PushIo,
): ProviderLockState {
  if (template.hasLockFile) return { hasLockFile: true };
  const pins = config?.templates?.get(id)?.providers;
  const plan = planProviderLock(template.model, args.providersMirror, pins);
  if (plan === undefined) return { hasLockFile: false };
  for (const address of plan.leftOut) {
    io.stderr(
      `note: ${address} is left out of ${TERRAFORM_LOCK_FILE}: ${UNPUBLISHED_PROVIDERS[address]}\n`,
    );
  }
  const fallback = (reason: string) => ({
    hasLockFile: false,
    note:
      `${reason}: ${template.name}'s providers are not locked, so --ignore-lockfile is passed and Coder's ` +
      `provisioners download them on each build (--providers-mirror <folder or https URL> locks them from a mirror)`,
  });
  if (args.dryRun) {
    if (findOnPath("terraform") === undefined) return fallback("terraform is not on PATH");
    io.stderr(
      `note: push runs the lock in a scratch folder holding only ${template.name}'s required_providers ` +
        `and copies its ${TERRAFORM_LOCK_FILE} into ${template.dir}; if it fails, push passes --ignore-lockfile\n`,
    );
    return { hasLockFile: true, dryRunCommand: `terraform ${shellQuote(plan.args)}` };
  }
  const outcome = writeProviderLock(plan, template.dir);
  if (!outcome.written) return fallback(outcome.reason);
  io.stderr(
    `locked ${plan.locked.join(", ")} for ${LOCK_PLATFORMS.join(" and ")} in ${path.join(template.dir, TERRAFORM_LOCK_FILE)}\n`,
  );
  return { hasLockFile: true };
}

/**
 * Stage 7, plan the commands: `coder templates push` and `templates edit`, with the flags
 * `coderVersion`'s release takes (a dry run without a CLI: the release planPush assumes).
 */
export function planTemplatePush(
  { config, id, template }: SynthesizedPush,
  args: PushArgs,
  inputs: {
    readonly variablesFile: string | undefined;
    readonly variablesFileNames: readonly string[];
    readonly version: VersionNaming;
    readonly coderVersion: ReturnType<typeof announceCoderVersion> | undefined;
    readonly lock: ProviderLockState;
  },
  io: PushIo,
): PushPlan {
  const plan = planPush(template, {
    variablesFile: inputs.variablesFile,
    variablesFileNames: inputs.variablesFileNames,
    message: inputs.version.message,
    versionName: inputs.version.versionName,
    activate: args.activate,
    coderSettings: config?.templates?.get(id)?.coderSettings,
    coderVersion: inputs.coderVersion,
    hasLockFile: inputs.lock.hasLockFile,
    noLockFileNote: inputs.lock.note,
  });
  for (const note of plan.notes) io.stderr(`note: ${note}\n`);
  return plan;
}

/**
 * Stage 8, publish: runs the planned commands with `coder` (a dry run, or one without a CLI,
 * prints them, after the lock command); returns the exit status.
 */
export async function publishTemplate(
  coder: string | undefined,
  plan: PushPlan & { readonly lockCommand?: string },
  { template }: SynthesizedPush,
  args: PushArgs,
  version: VersionNaming,
  io: PushIo,
): Promise<number> {
  if (args.dryRun || coder === undefined) {
    const lock = plan.lockCommand === undefined ? "" : `${plan.lockCommand}\n`;
    const edit = plan.edit === undefined ? "" : `coder ${shellQuote(plan.edit)}\n`;
    io.stdout(`${lock}coder ${shellQuote(plan.push)}\n${edit}`);
    return 0;
  }
  const pushed = await runCoderStep(coder, plan.push, "push failed");
  if (pushed !== 0) return pushed;
  if (plan.edit !== undefined) {
    const edited = await runCoderStep(
      coder,
      plan.edit,
      `pushed ${template.name}, but setting its display name, description, icon and settings failed`,
    );
    if (edited !== 0) return edited;
  }
  io.stderr(
    `pushed ${template.name} from ${template.dir}` +
      (version.versionName === undefined ? "" : ` as version ${version.versionName}`) +
      (args.activate ? "" : " (inactive)") +
      "\n",
  );
  return 0;
}

/** One push of `args`, its stages in order; returns the exit status (usage errors throw). */
export async function pushTemplate(args: PushArgs, io: PushIo): Promise<number> {
  const coder = findCoderCli(args, io);
  if (typeof coder === "number") return coder;
  const variablesFile = resolveVariablesFile(args);
  checkProvidersMirror(args);
  const synthesized = synthesizeForPush(args, io);
  const variablesFileNames = checkPushVariables(synthesized, args, variablesFile, io);
  const version = nameVersion(synthesized, args, io);
  // The flags a push may use depend on the CLI's release (app/coder-version.ts).
  const coderVersion = coder === undefined ? undefined : announceCoderVersion(coder);
  // Stage 5, before anything is pushed: what this version does to every workspace
  // (plan-upgrade).
  const stop = await checkUpgradeBeforePush(
    synthesized.template,
    { checkUpgrade: args.checkUpgrade, allowDataLoss: args.allowDataLoss },
    { variablesFile },
  );
  if (stop !== undefined) return stop;
  const lock = lockProviders(
    synthesized,
    { ...args, dryRun: args.dryRun || coder === undefined },
    io,
  );
  const plan = planTemplatePush(
    synthesized,
    args,
    { variablesFile, variablesFileNames, version, coderVersion, lock },
    io,
  );
  return publishTemplate(
    coder,
    { ...plan, lockCommand: lock.dryRunCommand },
    synthesized,
    args,
    version,
    io,
  );
}
