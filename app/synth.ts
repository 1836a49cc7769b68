import * as fs from "fs";
import * as path from "path";
import { App } from "../lib/core/cdk";
import { compareVersions } from "../lib/constructs/provider-features";

import { WorkspaceParameter } from "../lib/constructs/workspace-parameter";
import { ConfigError, type OperatorConfig } from "./operator-config";
import { InvalidPropError } from "../lib/core/validate";
import { projectRoot } from "../lib/core/project-root";
import { validateProvisionerTags, type ProvisionerTags } from "./provisioner-tags";
import { writeHclFiles } from "../lib/private/hcl-files";
import { localGroups } from "../lib/private/locals-file";
import { shipTemplateFiles } from "./template-files";
import type { TemplateFrontMatter, TemplateStack } from "../lib/constructs/template-stack";
import { applyVariableDefaults } from "./variable-defaults";
import { TemplateVariable, type CrossVariableRule } from "../lib/core/template-variable";
import { applyOperatorPresets } from "./operator-presets";
import {
  renderWorkspaceTags,
  WORKSPACE_TAGS_FILE,
  type WorkspaceTagSource,
} from "./workspace-tags";
import { TEMPLATES, type TemplateDefinition } from "./registry";

/** The lock file Coder uploads with a template (the one hidden file it does not skip). */
export const LOCK_FILE = ".terraform.lock.hcl";
/** Summary of a synth run, for CI scripts: names, folders and tags of every template. */
export const SYNTH_MANIFEST_FILE = "coder-templates.json";

export interface SynthesizedTemplate {
  readonly id: string;
  /** cdktf.out/stacks/<id>: what `coder templates push -d` uploads. */
  readonly dir: string;
  /** Coder template name (the operator's, or the id). */
  readonly name: string;
  /** Static tags to push with. */
  readonly provisionerTags: ProvisionerTags;
  /** Per-workspace tags written to workspace_tags.tf (empty when the template has none). */
  readonly workspaceTags: Readonly<Record<string, WorkspaceTagSource>>;
  readonly frontMatter: TemplateFrontMatter;
  /** Variable values from the operator's configuration (never sensitive). */
  readonly configuredVariables: Readonly<Record<string, unknown>>;
  /** Whether a .terraform.lock.hcl was shipped (from templates/<id>/). */
  readonly hasLockFile: boolean;
  /**
   * The rules across variables of each variable that has some (TemplateVariable
   * `crossRules`), for push to check on the values it sends.
   */
  readonly crossRules: Readonly<Record<string, readonly CrossVariableRule[]>>;
  /**
   * The template's configuration as one Terraform JSON document: cdk.tf.json with what
   * synth writes to locals.tf and main.tf (lib/private/hcl-files.ts).
   */
  readonly model: Record<string, unknown>;
  /**
   * Names of the parameters that may hold secrets (`mayHoldSecrets`): reports about existing
   * workspaces (plan-upgrade) never print their values.
   */
  readonly secretParameters: readonly string[];
}

export interface SynthOptions {
  /** @default "cdktf.out" (or $CDKTF_OUTDIR when run by the cdktf CLI) */
  readonly outdir?: string;
  /** Template ids to synthesize. @default all (or all the config lists) */
  readonly only?: readonly string[];
  /** The operator's configuration. @default none: built-in defaults */
  readonly config?: OperatorConfig;
  /** The registry to pick from (tests pass their own). @default TEMPLATES */
  readonly templates?: readonly TemplateDefinition[];
}

/**
 * Synthesizes templates into <outdir>/stacks/<id>/ with the files each ships, the
 * operator's variable defaults applied and, when a template declares per-workspace
 * tags, workspace_tags.tf beside cdk.tf.json.
 */
export function synthTemplates(options: SynthOptions = {}): SynthesizedTemplate[] {
  const outdir = options.outdir ?? process.env.CDKTF_OUTDIR ?? "cdktf.out";
  const registry = options.templates ?? TEMPLATES;
  const selected = selectTemplates(registry, options);
  const app = new App({ outdir });
  const stacks = selected.map((definition) => {
    const settings = options.config?.templates?.get(definition.id);
    const stack = createStack(definition, app, options.config);
    if (settings !== undefined && options.config !== undefined) {
      const config = options.config;
      applyVariableDefaults(definition.id, stack, settings.variables, (name, part) =>
        config.position(["templates", definition.id, "variables", name], part),
      );
      applyOperatorPresets(
        definition.id,
        stack,
        settings.presets,
        config.position,
        definition.presetRules,
      );
    }
    const provisionerTags = settings?.provisionerTags ?? definition.provisioners?.tags ?? {};
    validateProvisionerTags(`template "${definition.id}"`, provisionerTags);
    return {
      definition,
      stack,
      name: settings?.name ?? definition.id,
      provisionerTags,
      configuredVariables: settings?.variables ?? {},
    };
  });
  // A stack's folder holds only what this synth writes: a file left from an earlier run (a
  // lock file since removed from the template, a stray .tf, the half of a failed synth) would
  // otherwise be planned and pushed with it.
  for (const { stack } of stacks) {
    fs.rmSync(path.join(outdir, "stacks", stack.node.id), { recursive: true, force: true });
  }
  app.synth();

  const results = stacks.map(
    ({ definition, stack, name, provisionerTags, configuredVariables }) => {
      const dir = path.join(outdir, "stacks", stack.node.id);
      const jsonFile = path.join(dir, "cdk.tf.json");
      if (!fs.existsSync(jsonFile)) throw new Error(`${dir}: cdk.tf.json was not written`);
      const synthesized = JSON.parse(fs.readFileSync(jsonFile, "utf8")) as Record<string, unknown>;
      const rendered = renderWorkspaceTags(definition.id, stack, synthesized);
      if (rendered !== undefined) {
        fs.writeFileSync(path.join(dir, WORKSPACE_TAGS_FILE), rendered.hcl);
      }
      const json = orderVariablesAsDeclared(
        rendered?.json ?? synthesized,
        stack.declaredVariableNames(),
      );
      const model = writeHclFiles(dir, json, { localGroups: localGroups(stack) });
      checkProviderPins(definition.id, json, options.config);
      shipTemplateFiles(stack, dir);
      const lockSource = path.join(projectRoot(), stack.sourceDir, LOCK_FILE);
      const hasLockFile = fs.existsSync(lockSource);
      if (hasLockFile) fs.copyFileSync(lockSource, path.join(dir, LOCK_FILE));
      return {
        id: definition.id,
        dir,
        name,
        provisionerTags,
        workspaceTags: rendered?.tags ?? {},
        frontMatter: stack.frontMatter,
        configuredVariables,
        hasLockFile,
        crossRules: crossRulesOf(stack),
        model,
        secretParameters: secretParametersOf(stack),
      };
    },
  );
  writeManifest(outdir, results);
  return results;
}

/** The names of the parameters that may hold secrets (what the upgrade reports redact). */
function secretParametersOf(stack: TemplateStack): string[] {
  return stack.node
    .findAll()
    .filter((c): c is WorkspaceParameter => c instanceof WorkspaceParameter)
    .filter((p) => p.definition.mayHoldSecrets)
    .map((p) => p.name);
}

/** Each template variable's rules across variables, by name; only variables that have some. */
function crossRulesOf(stack: TemplateStack): Record<string, readonly CrossVariableRule[]> {
  const rules: Record<string, readonly CrossVariableRule[]> = {};
  for (const c of stack.node.findAll()) {
    if (c instanceof TemplateVariable && c.crossRules.length > 0) rules[c.node.id] = c.crossRules;
  }
  return rules;
}

/**
 * cdktf writes cdk.tf.json with sorted keys, and Coder lists template variables in file
 * order (by line), so without this they would show alphabetically. Rewrites the
 * `variable` block in the order the template declares them.
 */
export function orderVariablesAsDeclared(
  json: Record<string, unknown>,
  declared: readonly string[],
): Record<string, unknown> {
  const variables = json.variable as Record<string, unknown> | undefined;
  if (variables === undefined) return json;
  const names = Object.keys(variables);
  const missing = names.filter((n) => !declared.includes(n));
  if (missing.length > 0)
    throw new Error(`variables not declared by the stack: ${missing.join(", ")}`);
  const ordered: Record<string, unknown> = {};
  for (const name of declared) if (name in variables) ordered[name] = variables[name];
  return { ...json, variable: ordered };
}

/**
 * Creates a template's stack with the operator's settings. Settings the template does not
 * offer, and settings it rejects, fail with the position in the configuration file.
 */
export function createStack(
  definition: TemplateDefinition,
  app: App,
  config: OperatorConfig | undefined,
): TemplateStack {
  const settings = config?.templates?.get(definition.id)?.settings ?? {};
  const field = (name: string) => `templates.${definition.id}.settings.${name}`;
  const offered = definition.settings ?? {};
  for (const name of Object.keys(settings)) {
    // hasOwn, not `in`: "__proto__" (or "constructor") is `in` every object.
    if (!Object.hasOwn(offered, name)) {
      const allowed = Object.keys(offered);
      throw new ConfigError(
        `${config!.position(["templates", definition.id, "settings", name], "key")}: ${field(name)}: ` +
          `unknown setting; ${allowed.length > 0 ? `allowed: ${allowed.join(", ")}` : `template "${definition.id}" has none`}`,
      );
    }
  }
  if (Object.keys(settings).length === 0) return definition.create(app);
  try {
    return definition.create(app, settings);
  } catch (e) {
    if (!(e instanceof InvalidPropError)) throw e;
    // The prop is named in the message: `template "<id>": <prop>[<i>].<field> = <value>: <reason>`;
    // the position is the entry's (or its field's) when the file has it.
    const named = /^template "[^"]+": ([A-Za-z]+((?:\[\d+\]|\.[A-Za-z]+)*))/.exec(e.message);
    const path = named
      ? [...named[1].matchAll(/[A-Za-z]+|\[(\d+)\]/g)].map((m) =>
          m[1] === undefined ? m[0] : Number(m[1]),
        )
      : [];
    const where = config!.position(["templates", definition.id, "settings", ...path]);
    throw new ConfigError(`${where}: ${field(named?.[1] ?? "")}: ${e.message}`);
  }
}

/**
 * Fails synth when the operator pins a provider release (`templates.<id>.providers`) that the
 * template's computed bounds do not admit: a build on it would fail validate, or lack what
 * the template uses. Names the position, the field, the release and the bound.
 */
function checkProviderPins(
  id: string,
  json: Record<string, unknown>,
  config: OperatorConfig | undefined,
): void {
  const pins = config?.templates?.get(id)?.providers ?? {};
  const required =
    ((json.terraform ?? {}) as { required_providers?: Record<string, { version?: string }> })
      .required_providers ?? {};
  for (const [provider, release] of Object.entries(pins)) {
    const constraint = required[provider]?.version;
    const where = config!.position(["templates", id, "providers", provider]);
    const field = `templates.${id}.providers.${provider}`;
    if (constraint === undefined) {
      throw new ConfigError(
        `${where}: ${field}: template "${id}" does not use the ${provider} provider`,
      );
    }
    if (!admits(constraint, release)) {
      throw new ConfigError(
        `${where}: ${field}: ${release} is outside the template's bound "${constraint}" ` +
          `(docs/provider-versions.md says what each release lacks); pin a release the bound admits`,
      );
    }
  }
}

/** Whether `release` satisfies a constraint of `>= a`, `< b` and `= c` parts. */
function admits(constraint: string, release: string): boolean {
  return constraint.split(",").every((part) => {
    const m = /^\s*(>=|<=|>|<|=)?\s*(\d+(?:\.\d+)*)\s*$/.exec(part);
    if (m === null) return false;
    const c = compareVersions(release, m[2]);
    switch (m[1]) {
      case ">=":
        return c >= 0;
      case ">":
        return c > 0;
      case "<=":
        return c <= 0;
      case "<":
        return c < 0;
      default:
        return c === 0;
    }
  });
}

function selectTemplates(
  registry: readonly TemplateDefinition[],
  options: SynthOptions,
): TemplateDefinition[] {
  const known = registry.map((t) => t.id);
  const listed = options.config?.templates;
  for (const id of options.only ?? []) {
    if (!known.includes(id)) {
      throw new Error(`unknown template "${id}"; known: ${known.join(", ")}`);
    }
    if (listed !== undefined && !listed.has(id)) {
      throw new Error(
        `template "${id}" is not listed in ${options.config?.file}; add it under "templates" to build it`,
      );
    }
  }
  return registry.filter(
    (t) =>
      (options.only === undefined || options.only.includes(t.id)) &&
      (listed === undefined || listed.has(t.id)),
  );
}

function writeManifest(outdir: string, results: readonly SynthesizedTemplate[]): void {
  const manifest = results.map((r) => ({
    id: r.id,
    name: r.name,
    dir: path.relative(outdir, r.dir).split(path.sep).join("/"),
    provisionerTags: r.provisionerTags,
    workspaceTags: Object.keys(r.workspaceTags).sort(),
  }));
  fs.writeFileSync(
    path.join(outdir, SYNTH_MANIFEST_FILE),
    JSON.stringify({ templates: manifest }, null, 2) + "\n",
  );
}
