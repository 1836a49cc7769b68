/**
 * The `coder` commands that publish a synthesized template: `coder templates push`
 * with the template's name, folder, static provisioner tags, the configured variables
 * and the operator's variables file, then `coder templates edit` for its display name,
 * description and icon: no released CLI reads those from the README's front matter
 * (the README is stored as the version's docs, front matter hidden by the UI), and
 * `templates edit` keeps every field it is not given.
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
  clearsInheritedTags,
  formatCoderVersion,
  type CoderVersion,
} from "./coder-version";
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
}

/** The commands to run, in order, and what the user should know about them. */
export interface PushPlan {
  /** argv of `coder templates push …` (without the executable). */
  readonly push: readonly string[];
  /** argv of `coder templates edit …`, run after a successful push. */
  readonly edit: readonly string[];
  /** Notes printed before running (e.g. why --ignore-lockfile is passed). */
  readonly notes: readonly string[];
}

export function planPush(template: PushableTemplate, options: PushOptions = {}): PushPlan {
  const notes: string[] = [];
  const version = options.coderVersion === undefined ? ASSUMED_CODER_VERSION : options.coderVersion;
  const canClear = version !== null && clearsInheritedTags(version);
  if (options.coderVersion === undefined) {
    notes.push(
      `no coder CLI found: these are the commands for Coder ${formatCoderVersion(ASSUMED_CODER_VERSION)} or later (assumed)`,
    );
  }
  const untagged = Object.keys(template.provisionerTags).length === 0;
  if (untagged && !canClear) {
    const cli =
      version === null
        ? "this coder CLI (its version is unknown)"
        : `coder ${formatCoderVersion(version)}`;
    notes.push(
      `${cli} does not understand --provisioner-tag=- (added in ${formatCoderVersion(CLEAR_TAGS_SINCE)}), ` +
        `so ${template.name} is pushed without any tag flag and Coder keeps the provisioner tags of its ` +
        `active version (none for a new template). If an earlier version was tagged, its jobs still ` +
        `go to those provisioners; to clear the tags, push with a CLI of ${formatCoderVersion(CLEAR_TAGS_SINCE)} ` +
        `or later, or once by hand with \`coder templates push ${template.name} -d ${template.dir} ` +
        `--provisioner-tag scope=organization\` (only the tag every job has).`,
    );
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
  if (options.message !== undefined) push.push("-m", options.message);
  if (!fs.existsSync(path.join(template.dir, TERRAFORM_LOCK_FILE))) {
    push.push("--ignore-lockfile");
    notes.push(
      `no ${TERRAFORM_LOCK_FILE} in ${template.dir}: writing one needs the Terraform registry ` +
        `(terraform providers lock), which synth never reaches, so --ignore-lockfile is passed and ` +
        `Coder's provisioners download the providers on each build. To pin them, run ` +
        `\`terraform providers lock -platform=linux_amd64 -platform=linux_arm64\` in the synthesized ` +
        `folder on a machine with network access and save the file as templates/<template>/${TERRAFORM_LOCK_FILE}; ` +
        `synth ships it from there.`,
    );
  }
  const fm = template.frontMatter;
  const edit = [
    "templates",
    "edit",
    template.name,
    "--display-name",
    fm.displayName,
    "--description",
    fm.description,
    "--icon",
    fm.icon,
  ];
  return { push, edit, notes };
}

/**
 * `--var name=value` for every variable the operator configured, in name order. Once a
 * template exists, Coder sends the active version's stored value for each variable a
 * push does not name, and that value wins over the new default in cdk.tf.json; naming
 * every configured variable makes a changed configuration take effect. The values are
 * not secret (they are in cdk.tf.json already), so argv may show them. A name the
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
