/**
 * The `coder` commands that publish a synthesized template: `coder templates push`
 * with the template's name, folder, static provisioner tags and the operator's
 * variables file, then `coder templates edit` for its display name, description and
 * icon (older CLIs ignore README front matter, and none reads the description from it).
 *
 * Values that may be secret are never put in argv: template variables travel in a
 * YAML file (--variables-file), and the session token in the CLI's environment.
 */
import * as fs from "fs";
import * as path from "path";
import { provisionerTagArgs, type ProvisionerTags } from "./provisioner-tags";
import type { TemplateFrontMatter } from "./template-stack";

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
}

export interface PushOptions {
  /** YAML map of template-variable values, passed as --variables-file. @default none */
  readonly variablesFile?: string;
  /** Version message (-m). @default none (Coder writes its own) */
  readonly message?: string;
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
  const push = [
    "templates",
    "push",
    template.name,
    "-d",
    template.dir,
    "--yes",
    ...provisionerTagArgs(template.provisionerTags),
  ];
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
