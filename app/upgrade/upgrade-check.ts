/**
 * What `npm run plan-upgrade` and `npm run push -- --check-upgrade` share: the states to
 * plan (saved files, named workspaces, or all of the template's), the variables push passes,
 * and one run of the plan with its report.
 */
import * as fs from "node:fs";
import { parse as parseYaml } from "yaml";
import { UsageError } from "../cli-args";
import { findOnPath } from "../coder-cli";
import { checkStateCli, CoderCliError, pulledState, templateWorkspaces } from "./coder-states";
import {
  configurationOf,
  planUpgrade,
  type StateSource,
  type UpgradeReport,
  type UpgradeTarget,
} from "./plan-upgrade";

/** Which states to plan. */
export interface StateSelection {
  /** Saved state files (`--state`). */
  readonly stateFiles?: readonly string[];
  /** Workspaces to pull, `owner/name` (`--workspace`). */
  readonly workspaces?: readonly string[];
  /** Every workspace of the template (`--all`). */
  readonly all?: boolean;
}

export interface UpgradeCheckOptions extends StateSelection {
  /** The YAML variables file push passes (`--variables-file`). @default none */
  readonly variablesFile?: string;
  /** Plans at a time. @default the number of CPUs */
  readonly parallel?: number;
  readonly env?: NodeJS.ProcessEnv;
}

/** The values of a YAML variables file, as `coder templates push --variables-file` reads it. */
export function readVariablesFile(file: string): Record<string, unknown> {
  if (!fs.existsSync(file)) throw new UsageError(`--variables-file ${file}: file not found`);
  let parsed: unknown;
  try {
    parsed = parseYaml(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new UsageError(
      `--variables-file ${file}: not valid YAML (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`,
    );
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new UsageError(
      `--variables-file ${file}: must be a YAML map of variable names to values`,
    );
  }
  return parsed as Record<string, unknown>;
}

/** The state sources a selection names; pulls need the `coder` CLI, which is checked first. */
export async function selectStates(
  templateName: string,
  selection: StateSelection,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StateSource[]> {
  const files = selection.stateFiles ?? [];
  const named = selection.workspaces ?? [];
  for (const w of named) {
    if (!/^[^/\s]+\/[^/\s]+$/.test(w)) {
      throw new UsageError(`--workspace ${w}: expected owner/name`);
    }
  }
  if (files.length === 0 && named.length === 0 && selection.all !== true) {
    throw new UsageError(
      "name the states to plan: --workspace owner/name, --all, or --state <file>",
    );
  }
  const sources: StateSource[] = files.map((file) => ({
    source: file,
    read: async () => fs.promises.readFile(file, "utf8"),
  }));
  if (named.length === 0 && selection.all !== true) return sources;
  const coder = findOnPath("coder", env);
  if (coder === undefined) {
    throw new CoderCliError(
      "the Coder CLI (`coder`) is not on PATH: install it (<CODER_URL>/bin/), log in with " +
        "`coder login <CODER_URL>`, or pass saved states with --state",
    );
  }
  checkStateCli(coder, env);
  const pulled = new Set(named);
  if (selection.all === true)
    for (const w of await templateWorkspaces(coder, templateName, env)) pulled.add(w);
  return [...sources, ...[...pulled].map((w) => pulledState(coder, w, env))];
}

/** Plans `target` on the selected states with the variables push would pass. */
export async function checkUpgrade(
  target: UpgradeTarget,
  options: UpgradeCheckOptions,
): Promise<UpgradeReport> {
  const variables = options.variablesFile ? readVariablesFile(options.variablesFile) : {};
  const missing = requiredVariables(configurationOf(target)).filter((name) => !(name in variables));
  if (missing.length > 0) {
    throw new UsageError(
      `template ${target.name} has variables without a default: ${missing.join(", ")}; ` +
        "give their values in --variables-file, the file the push passes",
    );
  }
  const sources = await selectStates(target.name, options, options.env);
  return planUpgrade(target, sources, { variables, parallel: options.parallel });
}

/** The variables of the synthesized template's configuration that have no default. */
function requiredVariables(configuration: Record<string, unknown>): string[] {
  const config = configuration as { variable?: Record<string, { default?: unknown }> };
  return Object.entries(config.variable ?? {})
    .filter(([, v]) => !("default" in v))
    .map(([name]) => name);
}
