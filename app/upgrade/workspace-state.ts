/**
 * A workspace's Terraform state, as `coder state pull` prints it or an operator saved it:
 * checked to be a state this command can plan (format 4, a Coder workspace's, of the
 * template being planned), and read for what the workspace's next start answers its data
 * sources with. Nothing here prints a value of the state: it holds the agent's token, the
 * owner's session token and whatever the parameters say.
 */
import type { FixtureEntry, Fixtures, TerraformState } from "@coder-cdktf/terraform-harness";

/** A state that cannot be planned; the message names the workspace (or file) and why. */
export class StateError extends Error {}

/** What a state says about its workspace. */
export interface WorkspaceState {
  /** `owner/name`, as Coder names the workspace (from the state's own data sources). */
  readonly workspace: string;
  /** The Coder template the workspace belongs to (`data.coder_workspace.me.template_name`). */
  readonly templateName: string;
  /** Whether the workspace was stopped by its last build (`transition`). */
  readonly stopped: boolean;
  /** The state as planned: registry modules' resources left out (see {@link withoutModules}). */
  readonly state: TerraformState;
  /** Module calls whose resources the plan does not see (registry modules are stubbed). */
  readonly modules: readonly string[];
  /** The data sources' answers, as the last build recorded them. */
  readonly fixtures: Fixtures;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Data source types a template reads many times, and the configuration attribute that tells
 * the reads apart (the answer for `data.coder_parameter.cpu` is the one whose `name` is
 * "cpu"). Every other type is read once per template, so its recorded answer serves the read
 * whatever its configuration became.
 */
const READ_KEYS: Readonly<Record<string, readonly string[]>> = {
  coder_parameter: ["name"],
  coder_workspace_preset: ["name"],
  coder_external_auth: ["id"],
  coder_secret: ["env", "file"],
};

/**
 * Reads `text` (a state file's JSON) of the workspace `source` names (`owner/name`, or the
 * file): refuses what is no Terraform state of format 4, an empty state (a workspace never
 * built, or deleted), and a state without the Coder data sources every template reads.
 */
export function readWorkspaceState(text: string, source: string): WorkspaceState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const start = text
      .trim()
      .slice(0, 40)
      .replace(/[^\x20-\x7e]/g, "?");
    throw new StateError(
      `${source}: not a Terraform state (not JSON${start === "" ? ": the output was empty" : `; it starts with "${start}"`})`,
    );
  }
  if (!isRecord(parsed) || !("version" in parsed) || !Array.isArray(parsed.resources)) {
    throw new StateError(`${source}: not a Terraform state (no "version" and "resources")`);
  }
  if (parsed.version !== 4) {
    throw new StateError(
      `${source}: Terraform state format ${JSON.stringify(parsed.version)}; only format 4 (Terraform 0.12 and later) can be planned`,
    );
  }
  const resources = parsed.resources.filter(isRecord);
  if (resources.length === 0) {
    throw new StateError(`${source}: the state is empty (a workspace never built, or deleted)`);
  }
  const workspace = recorded(resources, "coder_workspace");
  const owner = recorded(resources, "coder_workspace_owner");
  if (workspace === undefined || owner === undefined) {
    throw new StateError(
      `${source}: not a Coder workspace's state (no data.coder_workspace and data.coder_workspace_owner)`,
    );
  }
  const modules = [
    ...new Set(resources.map((r) => r.module).filter((m): m is string => typeof m === "string")),
  ].sort();
  return {
    workspace: `${String(owner.name)}/${String(workspace.name)}`,
    templateName: String(workspace.template_name ?? ""),
    stopped: workspace.transition === "stop",
    state: withoutModules(parsed),
    modules,
    fixtures: { data_sources: recordedReads(resources) },
  };
}

/** The attributes of the first recorded root-module read of data source `type`. */
function recorded(resources: readonly Json[], type: string): Json | undefined {
  const resource = resources.find(
    (r) => r.mode === "data" && r.type === type && r.module === undefined,
  );
  const instance = Array.isArray(resource?.instances) ? resource.instances[0] : undefined;
  return isRecord(instance) && isRecord(instance.attributes) ? instance.attributes : undefined;
}

/**
 * The recorded data source reads as fixtures: each read answers as it did at the last build,
 * except that the workspace is starting (its next start is what is planned).
 */
function recordedReads(resources: readonly Json[]): Record<string, FixtureEntry[]> {
  const reads: Record<string, FixtureEntry[]> = {};
  for (const resource of resources) {
    if (resource.mode !== "data" || resource.module !== undefined) continue;
    const type = String(resource.type);
    for (const instance of Array.isArray(resource.instances) ? resource.instances : []) {
      if (!isRecord(instance) || !isRecord(instance.attributes)) continue;
      let values: Json = instance.attributes;
      if (type === "coder_workspace") values = { ...values, start_count: 1, transition: "start" };
      const keys = READ_KEYS[type];
      const entry: FixtureEntry = keys
        ? {
            match: Object.fromEntries(
              keys
                .filter((k) => values[k] !== null && values[k] !== undefined)
                .map((k) => [k, values[k]]),
            ),
            values,
          }
        : values;
      (reads[type] ??= []).push(entry);
    }
  }
  return reads;
}

/**
 * The state without the resources of module calls. The templates' modules come from Coder's
 * registry, which the harness cannot reach: it plans stand-ins whose resources are not the
 * real modules' (docs/upgrades.md), so the real ones are left out rather than planned for
 * deletion.
 */
function withoutModules(state: Json): TerraformState {
  const resources = (state.resources as unknown[]).filter(
    (r) => !isRecord(r) || r.module === undefined,
  );
  return { ...state, resources };
}
