/**
 * The `coder` commands that publish a synthesized template: `coder templates push`
 * with the template's name, folder, static provisioner tags, the configured variables,
 * the operator's variables file, the version's name and message and whether it becomes
 * active, then `coder templates edit` for its display name, description and icon and the
 * operator's coderSettings: no released CLI reads those three from the README's front matter
 * (the README is stored as the version's docs, front matter hidden by the UI) or takes them
 * on push (the version table in app/coder-version.ts decides), and `templates edit` keeps
 * every field it is not given. A version pushed inactive is promoted later with
 * `coder templates versions promote` (planPromote), which is when the edit runs.
 *
 * Values that may be secret are never put in argv: they travel in the operator's YAML
 * file (--variables-file), and the session token in the CLI's environment. Configured
 * variables are never secret and are passed with --var (see configuredVariableArgs).
 */
import * as fs from "fs";
import * as path from "path";
import {
  ASSUMED_CODER_VERSION,
  CLEAR_TAGS_SINCE,
  CODER_CLI_FEATURES,
  clearsInheritedTags,
  formatCoderVersion,
  hasCliFeature,
  OLDEST_CHECKED_CODER_VERSION,
  atLeast,
  type CliFeature,
  type CliFeatureName,
  type CoderVersion,
} from "./coder-version";
import { coderSettingsArgs, type CoderTemplateSettings } from "./coder-template-settings";
import { coderArrayItem } from "./coder-cli";
import { provisionerTagArgs, type ProvisionerTags } from "./provisioner-tags";
import type { TemplateFrontMatter } from "../lib/constructs/template-stack";

/** The lock file `coder templates push` looks for in the template folder. */
export const TERRAFORM_LOCK_FILE = ".terraform.lock.hcl";

/** A synthesized template, as far as pushing it is concerned. */
export interface PushableTemplate {
  /** Coder template name. */
  readonly name: string;
  /** Folder uploaded with `-d`. */
  readonly dir: string;
  readonly provisionerTags: ProvisionerTags;
  readonly frontMatter: TemplateFrontMatter;
  /**
   * Template-variable values the operator configured (coder-cdktf.jsonc), never secret:
   * the configuration refuses sensitive variables. @default none
   */
  readonly configuredVariables?: Readonly<Record<string, unknown>>;
}

export interface PushOptions {
  /** YAML map of template-variable values, passed as --variables-file. @default none */
  readonly variablesFile?: string;
  /**
   * The variable names `variablesFile` sets: those values win over configured ones, so no
   * `--var` is passed for them. @default none
   */
  readonly variablesFileNames?: readonly string[];
  /** Version message (-m). @default none (Coder writes its own) */
  readonly message?: string;
  /**
   * The release of the `coder` CLI that runs the push; `null` when it has one that
   * `coder version` could not tell (treated as older than v2.24, whose push always works).
   * @default ASSUMED_CODER_VERSION (a dry run without a CLI)
   */
  readonly coderVersion?: CoderVersion | null;
  /** The version's name (--name). @default none: Coder generates one */
  readonly versionName?: string;
  /** Whether the new version becomes the active one (--activate). @default true */
  readonly activate?: boolean;
  /** The operator's settings of the template in Coder. @default none */
  readonly coderSettings?: CoderTemplateSettings;
  /** The version table (tests pass their own). @default CODER_CLI_FEATURES */
  readonly features?: Readonly<Record<CliFeatureName, CliFeature>>;
  /**
   * Whether the folder has a `.terraform.lock.hcl` when the push runs (a dry run plans for
   * the one push would write). @default whether `template.dir` has one now
   */
  readonly hasLockFile?: boolean;
  /**
   * The note that explains a push without a lock file (app/push/provider-lock.ts says why
   * it wrote none). @default how to pin one by hand
   */
  readonly noLockFileNote?: string;
}

/** The commands to run, in order, and what the user should know about them. */
export interface PushPlan {
  /** argv of `coder templates push …` (without the executable). */
  readonly push: readonly string[];
  /**
   * argv of `coder templates edit …`, run after a successful push; undefined when there is
   * nothing to edit, or when the version is pushed inactive (promote runs it).
   */
  readonly edit?: readonly string[];
  /** Notes printed before running (e.g. why --ignore-lockfile is passed). */
  readonly notes: readonly string[];
}

export function planPush(template: PushableTemplate, options: PushOptions = {}): PushPlan {
  const notes: string[] = [];
  const version = options.coderVersion === undefined ? ASSUMED_CODER_VERSION : options.coderVersion;
  const features = options.features ?? CODER_CLI_FEATURES;
  const activate = options.activate ?? true;
  const canClear = version !== null && clearsInheritedTags(version);
  if (options.coderVersion === undefined) {
    notes.push(
      `no coder CLI found: these are the commands for Coder ${formatCoderVersion(ASSUMED_CODER_VERSION)} or later (assumed)`,
    );
  }
  const untagged = Object.keys(template.provisionerTags).length === 0;
  if (untagged && !canClear) {
    notes.push(inheritedTagsNote(template, version));
  }
  const push = [
    "templates",
    "push",
    template.name,
    "-d",
    template.dir,
    "--yes",
    ...provisionerTagArgs(template.provisionerTags, canClear),
  ];
  push.push(...configuredVariableArgs(template, options.variablesFileNames ?? []));
  if (options.variablesFile !== undefined) push.push("--variables-file", options.variablesFile);
  if (options.versionName !== undefined) {
    push.push("--name", options.versionName);
    if (!hasCliFeature(version, "nameOnCreate", features)) {
      notes.push(
        `${cliName(version)} names a new template's first version itself; --name ${options.versionName} ` +
          `applies to every later push (from ${sinceText(features.nameOnCreate)} also to the first).`,
      );
    }
  }
  if (options.message !== undefined) push.push("-m", options.message);
  if (!activate) {
    push.push("--activate=false");
    notes.push(inactiveNote(template.name, options.versionName));
  }
  if (version !== null && !atLeast(version, OLDEST_CHECKED_CODER_VERSION)) {
    notes.push(
      `coder ${formatCoderVersion(version)} is older than ${formatCoderVersion(OLDEST_CHECKED_CODER_VERSION)}, ` +
        `the oldest release these commands were checked against.`,
    );
  }
  if (!(options.hasLockFile ?? fs.existsSync(path.join(template.dir, TERRAFORM_LOCK_FILE)))) {
    push.push("--ignore-lockfile");
    notes.push(options.noLockFileNote ?? noLockFileNote(template.dir));
  }
  const metadataOnPush = hasCliFeature(version, "pushMetadataFlags", features);
  if (metadataOnPush) push.push(...metadataArgs(template.frontMatter));
  // The edit sets what belongs to the template, not the version: a staged version leaves it
  // to the promotion (planPromote), which also says what the CLI cannot set.
  const edit = activate
    ? planEdit(
        template.name,
        metadataOnPush ? undefined : template.frontMatter,
        options.coderSettings ?? {},
        version,
        notes,
      )
    : undefined;
  return { push, edit, notes };
}

/**
 * Why a push with a CLI that cannot clear tags (`--provisioner-tag=-`) keeps the active
 * version's, and how to clear them.
 */
function inheritedTagsNote(template: PushableTemplate, version: CoderVersion | null): string {
  const cli =
    version === null
      ? "this coder CLI (its version is unknown)"
      : `coder ${formatCoderVersion(version)}`;
  return (
    `${cli} does not understand --provisioner-tag=- (added in ${formatCoderVersion(CLEAR_TAGS_SINCE)}), ` +
    `so ${template.name} is pushed without any tag flag and Coder keeps the provisioner tags of its ` +
    `active version (none for a new template). If an earlier version was tagged, its jobs still ` +
    `go to those provisioners; to clear the tags, push with a CLI of ${formatCoderVersion(CLEAR_TAGS_SINCE)} ` +
    `or later, or once by hand with \`coder templates push ${template.name} -d ${template.dir} ` +
    `--provisioner-tag scope=organization\` (only the tag every job has).`
  );
}

/** What an inactive push leaves to the promotion. */
function inactiveNote(name: string, versionName: string | undefined): string {
  return (
    `${versionName ?? "the version"} is pushed inactive: workspaces keep the active version until ` +
    `\`npm run promote -- ${name} ${versionName ?? "<version>"}\`, which also applies the ` +
    `display name, description, icon and coderSettings (a template's, not a version's). ` +
    `A template's first push is always active.`
  );
}

/** Why a template without a lock file is pushed with --ignore-lockfile, and how to pin one. */
function noLockFileNote(dir: string): string {
  return (
    `no ${TERRAFORM_LOCK_FILE} in ${dir}, so --ignore-lockfile is passed and Coder's ` +
    `provisioners download the providers on each build. \`npm run push\` writes one with ` +
    `\`terraform providers lock\` (docs/configuration.md, "Pushing"); to pin the ` +
    `providers yourself, save one as templates/<template>/${TERRAFORM_LOCK_FILE}: synth ships it from there.`
  );
}

/** `--display-name … --description … --icon …`: where Coder shows the template. */
function metadataArgs(fm: TemplateFrontMatter): string[] {
  return ["--display-name", fm.displayName, "--description", fm.description, "--icon", fm.icon];
}

/**
 * argv of `coder templates edit <name>` setting the front matter (when given) and the
 * settings this CLI can set (the others go to `notes`); undefined when there is nothing to set.
 */
export function planEdit(
  name: string,
  frontMatter: TemplateFrontMatter | undefined,
  settings: CoderTemplateSettings,
  version: CoderVersion | null,
  notes: string[],
): string[] | undefined {
  const applied = coderSettingsArgs(settings, version);
  notes.push(...applied.notes);
  const args = [...(frontMatter === undefined ? [] : metadataArgs(frontMatter)), ...applied.args];
  return args.length === 0 ? undefined : ["templates", "edit", name, ...args];
}

/** What `npm run promote` runs. */
export interface PromotePlan {
  /** argv of `coder templates versions promote …`. */
  readonly promote: readonly string[];
  /** argv of `coder templates edit …`, run after it (see planEdit). */
  readonly edit?: readonly string[];
  readonly notes: readonly string[];
}

/** `coder templates versions promote --template <name> --template-version <version>`, then the edit. */
export function planPromote(
  name: string,
  versionName: string,
  options: {
    readonly coderVersion?: CoderVersion | null;
    readonly frontMatter?: TemplateFrontMatter;
    readonly coderSettings?: CoderTemplateSettings;
  } = {},
): PromotePlan {
  const notes: string[] = [];
  const version = options.coderVersion === undefined ? ASSUMED_CODER_VERSION : options.coderVersion;
  if (version !== null && !hasCliFeature(version, "promote")) {
    notes.push(
      `coder ${formatCoderVersion(version)} has no \`templates versions promote\` ` +
        `(added in ${sinceText(CODER_CLI_FEATURES.promote)}); this will fail: use a newer CLI, or promote ` +
        `the version on the template's Versions page.`,
    );
  }
  const promote = [
    "templates",
    "versions",
    "promote",
    "--template",
    name,
    "--template-version",
    versionName,
  ];
  const edit = planEdit(name, options.frontMatter, options.coderSettings ?? {}, version, notes);
  return { promote, edit, notes };
}

function cliName(version: CoderVersion | null): string {
  return version === null
    ? "this coder CLI (its version is unknown)"
    : `coder ${formatCoderVersion(version)}`;
}

function sinceText(feature: CliFeature): string {
  return feature.since === undefined ? "no release" : formatCoderVersion(feature.since);
}

/**
 * `--var name=value` for every variable the operator configured, in name order. Once a
 * template exists, Coder sends the active version's stored value for each variable a
 * push does not name, and that value wins over the new default in main.tf; naming
 * every configured variable makes a changed configuration take effect. The values are
 * not secret (they are in main.tf already), so argv may show them. A name the
 * operator's variables file sets is left to the file (file > configuration).
 */
function configuredVariableArgs(template: PushableTemplate, fromFile: readonly string[]): string[] {
  const values = template.configuredVariables ?? {};
  return Object.keys(values)
    .filter((name) => !fromFile.includes(name))
    .sort()
    .flatMap((name) => ["--var", coderArrayItem(`${name}=${variableValueText(values[name])}`)]);
}

/** A value as Coder takes it from `--var`: text, which Terraform converts to the variable's type. */
function variableValueText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
