/**
 * What a plan of a new template version on a workspace's state does to that workspace, in
 * the words an operator decides by: nothing, updated in place, pod restarted, replaced,
 * destroyed; and whether the user loses data (a volume replaced or destroyed) or access (an
 * identity or a kubeconfig replaced or destroyed). Only addresses and attribute paths are
 * reported, never values: states and plans hold tokens.
 */
import type { PlanResult, PlannedResource } from "@coder-cdktf/terraform-harness";

/** How an existing workspace fares, from harmless to worst. */
export const OUTCOMES = ["nothing", "updated", "restarted", "replaced", "destroyed"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** What the report calls each outcome. */
export const OUTCOME_WORDS: Readonly<Record<Outcome, string>> = {
  nothing: "nothing",
  updated: "updated in place",
  restarted: "pod restarted",
  replaced: "replaced",
  destroyed: "destroyed",
};

/** Resource types whose replacement or destruction loses a user's files. */
export const DATA_TYPES: readonly string[] = [
  "kubernetes_persistent_volume_claim_v1",
  "kubernetes_persistent_volume_claim",
  "kubernetes_persistent_volume_v1",
  "kubernetes_persistent_volume",
];

/**
 * Resource types whose replacement or destruction revokes credentials in use: service
 * accounts (their tokens die with them), bindings, token Secrets and kubeconfigs, tokens.
 */
export const ACCESS_TYPES: readonly string[] = [
  "kubernetes_service_account_v1",
  "kubernetes_secret_v1",
  "kubernetes_role_binding_v1",
  "kubernetes_cluster_role_binding_v1",
  "kubernetes_token_request_v1",
];

/** Workload types whose pod template a change of restarts the pod, and where it is. */
const POD_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  kubernetes_deployment_v1: ["spec", "0", "template"],
  kubernetes_stateful_set_v1: ["spec", "0", "template"],
  kubernetes_pod_v1: ["spec"],
};

/** One change to an existing object (creates of new ones are counted apart). */
export interface ObjectChange {
  readonly address: string;
  readonly type: string;
  readonly outcome: Exclude<Outcome, "nothing">;
  /** Terraform's actions, e.g. `["delete", "create"]`. */
  readonly actions: readonly string[];
  /** For a replacement: the attributes that force it (`spec.0.storage_class_name`). */
  readonly forcedBy: readonly string[];
  /** For an update: the attributes that change (paths, at most {@link MAX_PATHS}). */
  readonly changed: readonly string[];
  /** Why, in a few words, when Terraform says (`no longer in the configuration`). */
  readonly reason?: string;
  /** `data` or `access` when the change loses what the user keeps. */
  readonly loses?: "data" | "access";
}

/** What the plan does to one workspace. */
export interface WorkspaceChanges {
  readonly outcome: Outcome;
  readonly changes: readonly ObjectChange[];
  /** Addresses of the objects the start creates (new in this version, or started). */
  readonly created: readonly string[];
  /** Addresses whose loss loses data / access. */
  readonly dataLoss: readonly string[];
  readonly accessLoss: readonly string[];
}

const MAX_PATHS = 6;

/** Terraform's `action_reason` values, in the report's words. */
const REASONS: Readonly<Record<string, string>> = {
  delete_because_no_resource_config:
    "no longer in the configuration: renamed without a `moved` block?",
  delete_because_no_module: "its module is no longer called",
  delete_because_count_index: "its count no longer reaches this index",
  delete_because_each_key: "its for_each no longer has this key",
  delete_because_wrong_repetition: "count or for_each was added or removed",
  replace_because_cannot_update: "",
  replace_because_tainted: "tainted",
  replace_by_request: "replacement requested",
  replace_by_triggers: "replace_triggered_by",
};

/**
 * Whether a replacement of `type` costs the user nothing by itself: the coder provider's
 * records of a build (agent, apps, scripts, env, metadata) are ForceNew on every attribute,
 * so any change of a script or an app replaces them, and Coder reads them anew at each build.
 * A new agent token reaches the pod only through its restart, which the pod's own change
 * shows.
 */
export function isCoderRecord(type: string): boolean {
  return type.startsWith("coder_");
}

/**
 * Classifies `plan`'s changes of managed resources outside module calls (registry modules are
 * planned as stand-ins, so their changes say nothing). The workspace's outcome is the worst
 * change's, except that a replaced Coder record counts as an update ({@link isCoderRecord}),
 * and objects created count as an update only for a running workspace (a stopped one's start
 * creates its pod anyway).
 */
export function classifyChanges(plan: PlanResult, stopped = false): WorkspaceChanges {
  const details = rawDetails(plan);
  const changes: ObjectChange[] = [];
  const created: string[] = [];
  for (const r of plan.resourceChanges) {
    if (r.mode !== "managed" || r.address.startsWith("module.")) continue;
    const detail = details.get(r.address) ?? {};
    const change = classifyOne(r, detail);
    if (change === "created") created.push(r.address);
    else if (change !== undefined) changes.push(change);
  }
  const worst = changes.reduce<Outcome>((w, c) => {
    const o = c.outcome === "replaced" && isCoderRecord(c.type) ? "updated" : c.outcome;
    return OUTCOMES.indexOf(o) > OUTCOMES.indexOf(w) ? o : w;
  }, "nothing");
  return {
    outcome: worst === "nothing" && created.length > 0 && !stopped ? "updated" : worst,
    changes,
    created,
    dataLoss: changes.filter((c) => c.loses === "data").map((c) => c.address),
    accessLoss: changes.filter((c) => c.loses === "access").map((c) => c.address),
  };
}

interface RawDetail {
  readonly replacePaths?: readonly string[];
  readonly reason?: string;
}

/** `replace_paths` and `action_reason` by address, which PlanResult does not keep. */
function rawDetails(plan: PlanResult): Map<string, RawDetail> {
  const out = new Map<string, RawDetail>();
  const raw = Array.isArray(plan.raw.resource_changes) ? plan.raw.resource_changes : [];
  for (const entry of raw) {
    if (typeof entry !== "object" || entry === null) continue;
    const change = entry as Record<string, unknown>;
    const detail = (change.change ?? {}) as Record<string, unknown>;
    const paths = Array.isArray(detail.replace_paths) ? detail.replace_paths : [];
    out.set(String(change.address), {
      replacePaths: paths.map((p) => (Array.isArray(p) ? p.join(".") : String(p))),
      reason: typeof change.action_reason === "string" ? change.action_reason : undefined,
    });
  }
  return out;
}

function classifyOne(r: PlannedResource, detail: RawDetail): ObjectChange | "created" | undefined {
  const actions = r.actions;
  if (actions.length === 1 && (actions[0] === "no-op" || actions[0] === "read")) return undefined;
  if (actions.length === 1 && actions[0] === "create") return "created";
  const reason = detail.reason ? (REASONS[detail.reason] ?? detail.reason) || undefined : undefined;
  const loses = DATA_TYPES.includes(r.type)
    ? "data"
    : ACCESS_TYPES.includes(r.type)
      ? "access"
      : undefined;
  if (actions.includes("delete")) {
    const replaced = actions.includes("create");
    return {
      address: r.address,
      type: r.type,
      outcome: replaced ? "replaced" : "destroyed",
      actions,
      forcedBy: replaced ? (detail.replacePaths ?? []) : [],
      changed: [],
      ...(reason ? { reason } : {}),
      ...(loses ? { loses } : {}),
    };
  }
  const changed = changedPaths(r.before ?? {}, r.after, r.afterUnknown);
  const template = POD_TEMPLATES[r.type];
  const restarts =
    template !== undefined && changed.some((p) => startsWith(p.split("."), template));
  return {
    address: r.address,
    type: r.type,
    outcome: restarts ? "restarted" : "updated",
    actions,
    forcedBy: [],
    changed: changed.slice(0, MAX_PATHS),
  };
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((step, i) => path[i] === step);
}

/**
 * The dotted paths where `after` differs from `before` (or is unknown until apply), as deep as
 * the difference goes, lists by index. Sorted, each once.
 */
export function changedPaths(before: unknown, after: unknown, unknown: unknown): string[] {
  const out = new Set<string>();
  const walk = (b: unknown, a: unknown, u: unknown, path: string[]) => {
    if (u === true) {
      out.add(path.join("."));
      return;
    }
    const container = (v: unknown) => typeof v === "object" && v !== null;
    if (container(a) && container(b) && Array.isArray(a) === Array.isArray(b)) {
      const keys = new Set([
        ...Object.keys(a as object),
        ...Object.keys(b as object),
        ...(container(u) ? Object.keys(u as object) : []),
      ]);
      for (const k of keys) {
        walk(
          (b as Record<string, unknown>)[k],
          (a as Record<string, unknown>)[k],
          container(u) ? (u as Record<string, unknown>)[k] : undefined,
          [...path, k],
        );
      }
      return;
    }
    if (JSON.stringify(a ?? null) !== JSON.stringify(b ?? null)) out.add(path.join("."));
  };
  walk(before, after, unknown, []);
  return [...out].sort();
}
