/**
 * Many variations of one template in one Terraform run.
 *
 * A plan of the devcontainer template costs ~0.35 s of fixed work (process start, schemas,
 * validate walk, plan file, show) plus ~0.25 s per copy of the template planned. A test that
 * plans dozens of inputs (the bad-input matrix) therefore plans them as instances of one
 * module with `for_each`: the template becomes `./template` (its provider blocks moved to the
 * root, which the instances inherit), and every instance gets the shared template variables
 * unless its own entry overrides them. Terraform validates the module once and plans each
 * instance with its own values; `PlanResult.instance(address)` reads one instance back with
 * the same addresses a plan of the template alone would have.
 *
 * What differs from planning the template alone: root-only rules (an output that exposes a
 * sensitive value without `sensitive = true` fails only in a root module) are not exercised,
 * and data sources read the same fixtures in every instance unless their configuration
 * differs (see {@link nestState} for giving each instance its own prior state). Tests of the
 * template as a whole plan it alone; batches are for many variations of its inputs.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isRecord } from "./json";
import { prepareWorkdir, readConfiguration } from "./template-workdir";
import type { TerraformState } from "./terraform-harness";

/** Name of the module call whose instances are the batch's variations. */
const MODULE_NAME = "instances";
/** Root variable holding each instance's own template variables. */
const INSTANCES_VARIABLE = "harness_instances";
/** Terraform loads `*.auto.tfvars.json` itself, next to the caller's var file. */
const INSTANCES_VAR_FILE = "harness-instances.auto.tfvars.json";

/** A Terraform root directory that plans `keys.length` instances of one template. */
export interface ModuleBatch {
  /** The root directory, to pass to `TerraformHarness.plan` / `apply` like a template dir. */
  readonly dir: string;
  readonly keys: readonly string[];
  /** The module instance address of `key`, e.g. `module.instances["c3"]`. */
  instanceAddress(key: string): string;
  /** Removes the directory. */
  cleanup(): void;
}

/**
 * Builds the batch root for the synthesized template in `templateDir`. `instances` maps each
 * instance key to the template variables it sets itself; the others take the values the plan
 * gives the root (`PlanOptions.variables`, which must include the template's required ones),
 * or the template's defaults.
 */
export function prepareModuleBatch(
  templateDir: string,
  instances: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
): ModuleBatch {
  const keys = Object.keys(instances);
  if (keys.length === 0) throw new Error("a module batch needs at least one instance");
  const dir = mkdtempSync(join(tmpdir(), "tf-batch-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    // The template as a local module: backend stripped, registry modules pointed at stubs.
    const template = prepareWorkdir(templateDir);
    try {
      cpSync(template.dir, join(dir, "template"), { recursive: true });
    } finally {
      template.cleanup();
    }
    const moved = moveProvidersToRoot(join(dir, "template"), readConfiguration(templateDir));
    for (const [key, values] of Object.entries(instances)) {
      const unknown = Object.keys(values).filter((name) => !(name in moved.variables));
      if (unknown.length > 0) {
        throw new Error(
          `module batch instance "${key}" sets ${unknown.join(", ")}, which the template in ` +
            `${templateDir} does not declare`,
        );
      }
    }
    const inputs: Record<string, string> = {};
    for (const name of Object.keys(moved.variables)) {
      inputs[name] =
        `\${lookup(var.${INSTANCES_VARIABLE}[each.key], ${JSON.stringify(name)}, var.${name})}`;
    }
    const root = {
      terraform: { required_providers: moved.requiredProviders },
      // Terraform refuses an empty provider object: a provider-free template has none.
      ...(Object.keys(moved.providers).length > 0 ? { provider: moved.providers } : {}),
      variable: { ...moved.variables, [INSTANCES_VARIABLE]: { type: "any" } },
      module: {
        [MODULE_NAME]: {
          source: "./template",
          for_each: `\${var.${INSTANCES_VARIABLE}}`,
          ...(moved.aliases.length > 0 ? { providers: providersArgument(moved) } : {}),
          ...inputs,
        },
      },
    };
    writeFileSync(join(dir, "main.tf.json"), JSON.stringify(root, null, 2));
    writeFileSync(
      join(dir, INSTANCES_VAR_FILE),
      JSON.stringify({ [INSTANCES_VARIABLE]: instances }, null, 2),
    );
  } catch (error) {
    cleanup();
    throw error;
  }
  return {
    dir,
    keys,
    instanceAddress: (key) => `module.${MODULE_NAME}[${JSON.stringify(key)}]`,
    cleanup,
  };
}

interface MovedConfiguration {
  readonly providers: Record<string, unknown>;
  readonly requiredProviders: Record<string, unknown>;
  /** The aliased provider configurations, e.g. `kubernetes.harvester`. */
  readonly aliases: readonly string[];
  /** The template's variable declarations, copied to the root. */
  readonly variables: Record<string, unknown>;
}

/**
 * Deletes the provider blocks from the template's `*.tf.json` files (a module called with
 * `for_each` may not configure providers) and returns them with what the root needs to
 * declare them: the required_providers and the variables they may reference (those of the
 * JSON files and of `configuration`, the template's whole configuration).
 */
function moveProvidersToRoot(
  templateDir: string,
  configuration: Record<string, unknown>,
): MovedConfiguration {
  const providers: Record<string, unknown[]> = {};
  const requiredProviders: Record<string, unknown> = {};
  // The variables of the template's `.tf` files, as the project's reader gives them.
  const variables: Record<string, unknown> = isRecord(configuration.variable)
    ? { ...configuration.variable }
    : {};
  for (const file of readdirSync(templateDir)) {
    const path = join(templateDir, file);
    if (file.endsWith(".tf")) {
      if (/^\s*provider\s+"/m.test(readFileSync(path, "utf8"))) {
        throw new Error(
          `module batch: ${file} configures a provider in HCL, which cannot be moved`,
        );
      }
      continue;
    }
    if (!file.endsWith(".tf.json")) continue;
    const config: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (!isRecord(config)) continue;
    if (isRecord(config.provider)) {
      for (const [name, blocks] of Object.entries(config.provider)) {
        providers[name] = [
          ...(providers[name] ?? []),
          ...(Array.isArray(blocks) ? blocks : [blocks]),
        ];
      }
      delete config.provider;
      writeFileSync(path, JSON.stringify(config, null, 2));
    }
    const terraform = isRecord(config.terraform) ? config.terraform : {};
    const required = Array.isArray(terraform.required_providers)
      ? terraform.required_providers
      : [terraform.required_providers];
    for (const entry of required) if (isRecord(entry)) Object.assign(requiredProviders, entry);
    if (isRecord(config.variable)) Object.assign(variables, config.variable);
  }
  const aliases = Object.entries(providers).flatMap(([name, blocks]) =>
    blocks.flatMap((block) =>
      isRecord(block) && typeof block.alias === "string" ? [`${name}.${block.alias}`] : [],
    ),
  );
  if (aliases.length > 0) declareConfigurationAliases(templateDir, aliases);
  return { providers, requiredProviders, aliases, variables };
}

/**
 * A module gets aliased provider configurations only when it declares them
 * (`configuration_aliases`) and its caller passes them; the template's resources then use
 * `provider = kubernetes.harvester` as they did at the root.
 */
function declareConfigurationAliases(templateDir: string, aliases: readonly string[]): void {
  for (const file of readdirSync(templateDir).filter((f) => f.endsWith(".tf.json"))) {
    const path = join(templateDir, file);
    const config: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (!isRecord(config) || !isRecord(config.terraform)) continue;
    const required = config.terraform.required_providers;
    let changed = false;
    for (const entry of Array.isArray(required) ? required : [required]) {
      if (!isRecord(entry)) continue;
      for (const [name, requirement] of Object.entries(entry)) {
        const own = aliases.filter((alias) => alias.startsWith(`${name}.`));
        if (own.length === 0 || !isRecord(requirement)) continue;
        requirement.configuration_aliases = own;
        changed = true;
      }
    }
    if (changed) writeFileSync(path, JSON.stringify(config, null, 2));
  }
}

/**
 * The module call's `providers` when the template has aliased configurations: passing any
 * provider replaces the implicit inheritance of the defaults, so every default is passed too.
 */
function providersArgument(moved: MovedConfiguration): Record<string, string> {
  const names = [
    ...new Set([...Object.keys(moved.requiredProviders), ...Object.keys(moved.providers)]),
  ];
  return Object.fromEntries([
    ...names.map((name) => [name, name]),
    ...moved.aliases.map((alias) => [alias, alias]),
  ]);
}

/**
 * The resources of a root module's state (from an apply of the template alone) moved into the
 * module instance at `moduleAddress`, e.g. to give every instance of a batch the same prior
 * workspace. Provider addresses stay: the instances use the root's provider configurations.
 * Root outputs and check results are dropped (they belong to the root alone).
 */
export function nestState(state: TerraformState, moduleAddress: string): TerraformState {
  const resources = Array.isArray(state.resources) ? state.resources.filter(isRecord) : [];
  const prefix = (address: string) => `${moduleAddress}.${address}`;
  return {
    ...state,
    outputs: {},
    check_results: null,
    resources: resources.map((resource) => ({
      ...resource,
      module: typeof resource.module === "string" ? prefix(resource.module) : moduleAddress,
      instances: (Array.isArray(resource.instances) ? resource.instances : [])
        .filter(isRecord)
        .map((instance) => ({
          ...instance,
          ...(Array.isArray(instance.dependencies)
            ? { dependencies: instance.dependencies.map((d) => prefix(String(d))) }
            : {}),
        })),
    })),
  };
}

/** One state holding the resources of several (nested) states, e.g. one per batch instance. */
export function mergeStates(states: readonly TerraformState[]): TerraformState {
  if (states.length === 0) throw new Error("mergeStates needs at least one state");
  return {
    ...states[0],
    resources: states.flatMap((s) => (Array.isArray(s.resources) ? s.resources : [])),
  };
}
