/**
 * Apply time: reads `customizations.kubernetes` from a Dev Container's merged
 * configuration (ADR-0015) into plain maps and lists that the sizing and placement
 * constructs decide on.
 *
 * The merged configuration lists one `customizations.kubernetes` entry per
 * contributor (base image, Features, devcontainer.json). Entries that are not
 * objects are skipped; maps merge per key with later entries winning; tolerations
 * concatenate. Nothing here can fail a plan: a configuration that is null, not an
 * object, or has the wrong types anywhere yields empty results, and the values that
 * were given but cannot be used are kept (as their JSON text) so that the deciding
 * constructs can name them in warnings. A piece of the wrong type (an entry that is no
 * object, `tolerations` that is no list, …) is named in a warning of its own here.
 */
import { Construct } from "../core/cdk";
import { Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";

/** The keys of a `customizations.kubernetes` entry the template reads; others get a warning. */
export const KUBERNETES_CUSTOMIZATION_KEYS: readonly string[] = [
  "resources",
  "storage",
  "nodeSelector",
  "tolerations",
];

/**
 * `customizations.kubernetes` entries read (one per contributor: the image's metadata label,
 * each Feature, devcontainer.json); the rest is left out with a warning. Every list and map
 * below is cut before anything walks it: each entry costs every plan and apply of the
 * workspace, and no workspace needs more (issue 32.2).
 */
export const KUBERNETES_ENTRIES_READ = 20;
/**
 * Names read from the merged `resources.requests`, `resources.limits` and `nodeSelector`
 * each, in name order; the rest is left out with a warning.
 */
export const KUBERNETES_NAMES_READ = 32;
/** Tolerations read, over all entries in order; the rest is left out with a warning. */
export const TOLERATIONS_READ = 50;
/** Keys of an entry the template does not read that a warning names one by one. */
export const UNKNOWN_KEYS_NAMED = 10;

export interface DevcontainerKubernetesCustomizationsProps {
  /**
   * The decoded merged configuration (`jsondecode(configuration_json)`, or `{}`/null
   * while the workspace is stopped), any type.
   */
  readonly configuration: Expr<unknown>;
  /** Prefix of every local's name (tests plan many instances at once). @default "" */
  readonly localPrefix?: string;
}

/**
 * `local.k8s_*`: customizations.kubernetes, merged across contributors.
 *
 * Outputs (all Expr, typed by what they hold):
 * - `requests`, `limits`: map of resource name → `{ value, json }`; `value` is the
 *   string the repository gave (a number becomes its string, any other type `""`),
 *   `json` the value as JSON, for warnings.
 * - `nodeSelector`: map of label → string (a number becomes its string, any other type
 *   null); `nodeSelectorJson`: map of label → the value as JSON, for warnings.
 * - `storage`: `{ value, json }` of the last entry whose storage is a non-empty
 *   string or number, else null.
 * - `rejectedStorage`: JSON texts of storage values that are neither (e.g. `true`); `""`
 *   counts as unset.
 * - `tolerations`: de-duplicated list of `{ key, operator, value, effect,
 *   toleration_seconds }`, every field a string or null, from the entries that are objects.
 * - `resourceShapeWarnings`, `placementShapeWarnings`: warning lines for the pieces of the
 *   wrong type that the sizing and the placement would otherwise skip without a word,
 *   each quoting the value as JSON.
 */
export class DevcontainerKubernetesCustomizations extends Construct {
  public readonly entries: Expr<unknown[]>;
  public readonly requests: Expr<Record<string, GivenValue>>;
  public readonly limits: Expr<Record<string, GivenValue>>;
  public readonly nodeSelector: Expr<Record<string, string>>;
  public readonly nodeSelectorJson: Expr<Record<string, string>>;
  public readonly storage: Expr<GivenValue>;
  public readonly rejectedStorage: Expr<string[]>;
  public readonly tolerations: Expr<Toleration[]>;
  public readonly resourceShapeWarnings: Expr<string[]>;
  public readonly placementShapeWarnings: Expr<string[]>;

  constructor(scope: Construct, id: string, props: DevcontainerKubernetesCustomizationsProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");

    // concat() accepts only lists, so a customizations.kubernetes that is an object or a
    // string is treated as absent rather than iterated.
    // Every list and map is cut (slice(), keys()) before a for expression walks it: those
    // are Terraform's own linear steps, where a for expression costs per entry.
    const listed = locals.add<unknown[]>(
      "k8s_customizations_listed",
      hcl`try(concat(${props.configuration}.customizations.kubernetes, []), [])`,
      "concat() takes only lists: an object or a string here is treated as absent, not walked.",
    );
    const firstEntries = hcl<
      unknown[]
    >`slice(${listed}, 0, min(length(${listed}), ${KUBERNETES_ENTRIES_READ}))`;
    this.entries = locals.add<unknown[]>(
      "k8s_customizations",
      hcl`[for entry in ${firstEntries} : entry if can(keys(entry))]`,
      "Only the first entries are read, and of those the objects: each costs every plan and apply.",
    );
    const entries = this.entries;
    const given = this.resourcesAndSelector(locals, entries);
    ({ requests: this.requests, limits: this.limits } = given);
    ({ nodeSelector: this.nodeSelector, nodeSelectorJson: this.nodeSelectorJson } = given);
    ({ storage: this.storage, rejectedStorage: this.rejectedStorage } = this.storageGiven(
      locals,
      entries,
    ));
    const tolerations = this.tolerationsGiven(locals, entries);
    this.tolerations = tolerations.tolerations;
    ({
      resourceShapeWarnings: this.resourceShapeWarnings,
      placementShapeWarnings: this.placementShapeWarnings,
    } = this.shapeWarnings(locals, listed, firstEntries, entries, given, tolerations));
  }

  /** The merged resources and nodeSelector, their first KUBERNETES_NAMES_READ names described. */
  private resourcesAndSelector(locals: NamedLocals, entries: Expr<unknown[]>): MergedMaps {
    /** The first KUBERNETES_NAMES_READ names of a merged map, with their values. */
    const firstNames = (merged: Expr<Record<string, unknown>>) =>
      hcl<
        Record<string, unknown>
      >`{ for name in slice(keys(${merged}), 0, min(length(${merged}), ${KUBERNETES_NAMES_READ})) : name => ${merged}[name] }`;
    const merged = (name: string, path: string, why?: string) =>
      locals.add<Record<string, unknown>>(
        name,
        hcl`try(merge([for entry in ${entries} : ${Expr.ref(`entry.${path}`)} if can(keys(${Expr.ref(`entry.${path}`)}))]...), {})`,
        why,
      );
    const requestsMerged = merged(
      "k8s_requests_merged",
      "resources.requests",
      "Every entry counts, a later one winning per name: the checks then read one map.",
    );
    const limitsMerged = merged(
      "k8s_limits_merged",
      "resources.limits",
      "Every entry counts, a later one winning per name: the checks then read one map.",
    );
    const selectorMerged = merged(
      "k8s_node_selector_merged",
      "nodeSelector",
      "Every entry counts, a later one winning per name: the checks then read one map.",
    );
    const described = (map: Expr<Record<string, unknown>>) =>
      hcl<
        Record<string, GivenValue>
      >`{ for name, value in ${firstNames(map)} : name => { value = ${scalarString(Expr.ref("value"), "")}, json = jsonencode(value) } }`;
    const requests = locals.add<Record<string, GivenValue>>(
      "k8s_requests_given",
      described(requestsMerged),
      "Each request keeps its JSON text beside its value, so a warning can quote it as written.",
    );
    const limits = locals.add<Record<string, GivenValue>>(
      "k8s_limits_given",
      described(limitsMerged),
      "Each limit keeps its JSON text beside its value, so a warning can quote it as written.",
    );
    // A value that is no string or number (true, null, an object) is null here, and invalid:
    // "" would be a valid label value that pins the pod to nodes the repository never named.
    const givenSelector = firstNames(selectorMerged);
    const nodeSelector = locals.add<Record<string, string>>(
      "k8s_node_selector_given",
      hcl`{ for name, value in ${givenSelector} : name => ${scalarString(Expr.ref("value"), null)} }`,
      'A value that is no string or number is null: "" would pin the pod to nodes nobody named.',
    );
    const nodeSelectorJson = locals.add<Record<string, string>>(
      "k8s_node_selector_json",
      hcl`{ for name, value in ${givenSelector} : name => jsonencode(value) }`,
      "Warnings quote each selector value as the repository wrote it.",
    );
    return {
      requestsMerged,
      limitsMerged,
      selectorMerged,
      requests,
      limits,
      nodeSelector,
      nodeSelectorJson,
    };
  }

  /** The last storage that is a string or number, and the JSON of those that are neither. */
  private storageGiven(
    locals: NamedLocals,
    entries: Expr<unknown[]>,
  ): { readonly storage: Expr<GivenValue>; readonly rejectedStorage: Expr<string[]> } {
    // An empty string means unset, as null does (no warning).
    const storageValues = locals.add<GivenValue[]>(
      "k8s_storage_values",
      hcl`[for entry in ${entries} : {
        value = ${scalarString(Expr.ref("entry.storage"), "")}, json = jsonencode(entry.storage)
      } if try(entry.storage, null) != null && try(entry.storage, null) != ""]`,
      "An empty string means unset, as null does: such an entry is no request and no warning.",
    );
    const storage = locals.add<GivenValue>(
      "k8s_storage_given",
      hcl`try(reverse([for storage in ${storageValues} : storage if storage.value != ""])[0], null)`,
      "Of the entries that give storage, the last one counts, as later settings win.",
    );
    const rejectedStorage = locals.add<string[]>(
      "k8s_storage_rejected",
      hcl`[for storage in ${storageValues} : storage.json if storage.value == ""]`,
      "Warnings quote the storage values that are no string or number, as written.",
    );
    return { storage, rejectedStorage };
  }

  /** The first TOLERATIONS_READ tolerations, normalized, each kept once. */
  private tolerationsGiven(locals: NamedLocals, entries: Expr<unknown[]>): Tolerations {
    // All entries' tolerations in order (concat() is linear; flatten() would also open a
    // toleration that is itself a list), then the first TOLERATIONS_READ of them.
    const tolerationsListed = locals.add<unknown[]>(
      "k8s_tolerations_listed",
      hcl`concat([], [for entry in ${entries} : entry.tolerations if can(concat(entry.tolerations, []))]...)`,
      "concat() is linear; flatten() would also open a toleration that is itself a list.",
    );
    const tolerationsRead = locals.add<unknown[]>(
      "k8s_tolerations_read",
      hcl`slice(${tolerationsListed}, 0, min(length(${tolerationsListed}), ${TOLERATIONS_READ}))`,
      "The list is cut before it is walked: every entry costs each plan and apply.",
    );
    const normalized = locals.add<Toleration[]>(
      "k8s_tolerations_normalized",
      hcl`[for toleration in ${tolerationsRead} : {
            for field, source in ${TOLERATION_FIELDS} : field => ${scalarString(hcl`try(toleration[source], null)`, null)}
          } if can(keys(toleration)) && !${malformed(Expr.ref("toleration"))}]`,
      "A field of another type than string or number would change what the toleration means.",
    );
    // A toleration listed twice is kept once, at its first place: each one's first position
    // comes from one map (distinct() compares every pair).
    const firstPosition = locals.add<Record<string, number[]>>(
      "k8s_tolerations_first_position",
      hcl`{ for position, toleration in ${normalized} : jsonencode(toleration) => position... }`,
      "A toleration listed twice is kept once: one map finds each one's first place.",
    );
    const tolerations = locals.add<Toleration[]>(
      "k8s_tolerations_given",
      hcl`[for position, toleration in ${normalized} : toleration if ${firstPosition}[jsonencode(toleration)][0] == position]`,
      "Duplicates add nothing to a pod's tolerations: each is kept once, at its first place.",
    );
    return { tolerations, tolerationsListed, tolerationsRead };
  }

  /** Warning lines for the pieces of the wrong type the sizing and the placement skip. */
  private shapeWarnings(
    locals: NamedLocals,
    listed: Expr<unknown[]>,
    firstEntries: Expr<unknown[]>,
    entries: Expr<unknown[]>,
    { requestsMerged, limitsMerged, selectorMerged }: MergedMaps,
    { tolerationsListed, tolerationsRead }: Tolerations,
  ): {
    readonly resourceShapeWarnings: Expr<string[]>;
    readonly placementShapeWarnings: Expr<string[]>;
  } {
    const tooManyNames = (map: Expr<Record<string, unknown>>, what: string) =>
      hcl`length(${map}) > ${KUBERNETES_NAMES_READ} ? [format(${`customizations.kubernetes ${what} names %d entries; only the first ${KUBERNETES_NAMES_READ} (in name order) are read.`}, length(${map}))] : []`;

    // A field that is set (not null) but of a type nothing here reads.
    const notObject = (path: string) =>
      hcl`[for entry in ${entries} : format(${`customizations.kubernetes ${path}: %s is not an object, ignored`}, jsonencode(${Expr.ref(`entry.${path}`)}))
        if try(${Expr.ref(`entry.${path}`)}, null) != null && !can(keys(${Expr.ref(`entry.${path}`)}))]`;
    // The first keys of an entry the template does not read, in name order, from no more of
    // its keys than can hold them, and how many there are: neither walks all of an entry's
    // keys (setsubtract() and sort() on 8,000 keys took seconds).
    const known = KUBERNETES_CUSTOMIZATION_KEYS;
    const unknownKeys = hcl`[for key in slice(keys(entry), 0, min(length(entry), ${UNKNOWN_KEYS_NAMED + known.length})) : key if !contains(${known}, key)]`;
    const unknownCount = hcl`(length(entry) - length([for key in ${known} : key if can(entry[key])]))`;
    const resourceShapeWarnings = locals.add<string[]>(
      "k8s_resource_shape_warnings",
      hcl`concat(
        length(${listed}) > ${KUBERNETES_ENTRIES_READ} ? [format(${`customizations.kubernetes lists %d entries; only the first ${KUBERNETES_ENTRIES_READ} are read.`}, length(${listed}))] : [],
        [for entry in ${firstEntries} : format(
          "customizations.kubernetes: %s is not an object, ignored", jsonencode(entry)) if entry != null && !can(keys(entry))],
        flatten([for entry in ${entries} : concat(
          [for key in slice(${unknownKeys}, 0, min(length(${unknownKeys}), ${UNKNOWN_KEYS_NAMED})) : format(
            "customizations.kubernetes %s is not a setting this template reads (%s); it is ignored.",
            jsonencode(key), ${KUBERNETES_CUSTOMIZATION_KEYS.join(", ")})],
          ${unknownCount} > ${UNKNOWN_KEYS_NAMED} ? [format(
            "customizations.kubernetes: %d more settings this template does not read are ignored.",
            ${unknownCount} - ${UNKNOWN_KEYS_NAMED})] : []
        )]),
        ${tooManyNames(requestsMerged, "resources.requests")},
        ${tooManyNames(limitsMerged, "resources.limits")},
        ${notObject("resources")},
        ${notObject("resources.requests")},
        ${notObject("resources.limits")}
      )`,
    );
    const placementShapeWarnings = locals.add<string[]>(
      "k8s_placement_shape_warnings",
      hcl`concat(
        ${notObject("nodeSelector")},
        ${tooManyNames(selectorMerged, "nodeSelector")},
        [for entry in ${entries} : format("customizations.kubernetes tolerations: %s is not a list, ignored", jsonencode(entry.tolerations))
          if try(entry.tolerations, null) != null && !can(concat(entry.tolerations, []))],
        length(${tolerationsListed}) > ${TOLERATIONS_READ} ? [format(${`customizations.kubernetes tolerations lists %d entries; only the first ${TOLERATIONS_READ} are read.`}, length(${tolerationsListed}))] : [],
        [for toleration in ${tolerationsRead} : format(
            "customizations.kubernetes tolerations: %s is not a valid toleration, ignored", jsonencode(toleration))
          if !can(keys(toleration)) || ${malformed(Expr.ref("toleration"))}]
      )`,
    );
    return { resourceShapeWarnings, placementShapeWarnings };
  }
}

/** The merged maps of resources and nodeSelector, and what is given in them. */
interface MergedMaps {
  readonly requestsMerged: Expr<Record<string, unknown>>;
  readonly limitsMerged: Expr<Record<string, unknown>>;
  readonly selectorMerged: Expr<Record<string, unknown>>;
  readonly requests: Expr<Record<string, GivenValue>>;
  readonly limits: Expr<Record<string, GivenValue>>;
  readonly nodeSelector: Expr<Record<string, string>>;
  readonly nodeSelectorJson: Expr<Record<string, string>>;
}

/** The tolerations given, listed and read. */
interface Tolerations {
  readonly tolerations: Expr<Toleration[]>;
  readonly tolerationsListed: Expr<unknown[]>;
  readonly tolerationsRead: Expr<unknown[]>;
}

/** A value the repository gave: as a string (`""` for another type), and as its JSON text. */
interface GivenValue {
  readonly value: string;
  readonly json: string;
}

/** A toleration, normalized: every field a string or null. */
type Toleration = Readonly<
  Record<"key" | "operator" | "value" | "effect" | "toleration_seconds", string | null>
>;

// The JSON field names of a toleration, by the names the kubernetes provider uses.
const TOLERATION_FIELDS = {
  key: "key",
  operator: "operator",
  value: "value",
  effect: "effect",
  toleration_seconds: "tolerationSeconds",
};
// A field set to something else than a string or number: reading it as null would change
// what the toleration means (no tolerationSeconds tolerates NoExecute forever).
const malformed = (toleration: Expr<unknown>) =>
  hcl<boolean>`anytrue([for source in values(${TOLERATION_FIELDS}) :
      try(${toleration}[source], null) != null && !can(regex("^[\"0-9-]", jsonencode(${toleration}[source])))])`;

/**
 * HCL for "a string or number as its string, anything else `fallback`". The JSON text
 * tells the type apart: only strings start with `"`, only numbers with a digit or `-`.
 * Errors in the branch not taken are not reported, so tostring() of an object is safe.
 */
function scalarString(expression: Expr<unknown>, fallback: string | null): Expr<string> {
  return hcl`can(regex("^[\"0-9-]", jsonencode(${expression}))) ? tostring(${expression}) : ${fallback}`;
}
