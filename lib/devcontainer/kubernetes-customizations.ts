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
import { Construct, IResolvable, TerraformLocal } from "../core/cdk";
import { hcl, hclRaw, HclValue } from "../core/hcl";
import { NamedLocals } from "./named-locals";

/** The keys of a `customizations.kubernetes` entry the template reads; others get a warning. */
export const KUBERNETES_CUSTOMIZATION_KEYS: readonly string[] = [
  "resources",
  "storage",
  "nodeSelector",
  "tolerations",
];

export interface KubernetesCustomizationsProps {
  /**
   * The decoded merged configuration (`jsondecode(configuration_json)`, or `{}`/null
   * while the workspace is stopped), any type.
   */
  readonly configuration: HclValue;
  /** Prefix of every local's name (tests plan many instances at once). @default "" */
  readonly localPrefix?: string;
}

/**
 * `local.k8s_*`: customizations.kubernetes, merged across contributors.
 *
 * Outputs (all tokens):
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
export class KubernetesCustomizations extends Construct {
  public readonly entries: TerraformLocal;
  public readonly requests: IResolvable;
  public readonly limits: IResolvable;
  public readonly nodeSelector: IResolvable;
  public readonly nodeSelectorJson: IResolvable;
  public readonly storage: IResolvable;
  public readonly rejectedStorage: IResolvable;
  public readonly tolerations: IResolvable;
  public readonly resourceShapeWarnings: IResolvable;
  public readonly placementShapeWarnings: IResolvable;

  constructor(scope: Construct, id: string, props: KubernetesCustomizationsProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");

    // concat() accepts only lists, so a customizations.kubernetes that is an object or a
    // string is treated as absent rather than iterated.
    this.entries = locals.add(
      "k8s_customizations",
      hcl`try([for entry in concat(${props.configuration}.customizations.kubernetes, []) : entry if can(keys(entry))], [])`,
    );
    const entries = this.entries.asList;

    const mergedMap = (path: string) =>
      hcl`try({
        for name, value in merge([for entry in ${entries} : entry.${hclRaw(path)} if can(keys(entry.${hclRaw(path)}))]...) :
        name => { value = ${scalarString("value", '""')}, json = jsonencode(value) }
      }, {})`;
    this.requests = locals.add("k8s_requests_given", mergedMap("resources.requests")).expression;
    this.limits = locals.add("k8s_limits_given", mergedMap("resources.limits")).expression;
    // A value that is no string or number (true, null, an object) is null here, and invalid:
    // "" would be a valid label value that pins the pod to nodes the repository never named.
    const givenSelector = hcl`merge([for entry in ${entries} : entry.nodeSelector if can(keys(entry.nodeSelector))]...)`;
    this.nodeSelector = locals.add(
      "k8s_node_selector_given",
      hcl`try({ for name, value in ${givenSelector} : name => ${scalarString("value", "null")} }, {})`,
    ).expression;
    this.nodeSelectorJson = locals.add(
      "k8s_node_selector_json",
      hcl`try({ for name, value in ${givenSelector} : name => jsonencode(value) }, {})`,
    ).expression;

    // An empty string means unset, as null does (no warning).
    const storageValues = locals.add(
      "k8s_storage_values",
      hcl`[for entry in ${entries} : {
        value = ${scalarString("entry.storage", '""')}, json = jsonencode(entry.storage)
      } if try(entry.storage, null) != null && try(entry.storage, null) != ""]`,
    );
    this.storage = locals.add(
      "k8s_storage_given",
      hcl`try(reverse([for storage in ${storageValues.asList} : storage if storage.value != ""])[0], null)`,
    ).expression;
    this.rejectedStorage = locals.add(
      "k8s_storage_rejected",
      hcl`[for storage in ${storageValues.asList} : storage.json if storage.value == ""]`,
    ).expression;

    // The JSON field names of a toleration, by the names the kubernetes provider uses.
    const fields = {
      key: "key",
      operator: "operator",
      value: "value",
      effect: "effect",
      toleration_seconds: "tolerationSeconds",
    };
    // A field set to something else than a string or number: reading it as null would change
    // what the toleration means (no tolerationSeconds tolerates NoExecute forever).
    const malformed = (toleration: string) =>
      hcl`anytrue([for source in values(${fields}) :
        try(${hclRaw(toleration)}[source], null) != null && !can(regex("^[\"0-9-]", jsonencode(${hclRaw(toleration)}[source])))])`;
    this.tolerations = locals.add(
      "k8s_tolerations_given",
      hcl`distinct(flatten([
        for entry in ${entries} : [
          for toleration in entry.tolerations : {
            for field, source in ${fields} : field => ${scalarString("try(toleration[source], null)", "null")}
          } if can(keys(toleration)) && !${malformed("toleration")}
        ] if can(concat(entry.tolerations, []))
      ]))`,
    ).expression;

    // A field that is set (not null) but of a type nothing here reads.
    const notObject = (path: string) =>
      hcl`[for entry in ${entries} : format(${`customizations.kubernetes ${path}: %s is not an object, ignored`}, jsonencode(entry.${hclRaw(path)}))
        if try(entry.${hclRaw(path)}, null) != null && !can(keys(entry.${hclRaw(path)}))]`;
    this.resourceShapeWarnings = locals.add(
      "k8s_resource_shape_warnings",
      hcl`concat(
        try([for entry in concat(${props.configuration}.customizations.kubernetes, []) : format(
          "customizations.kubernetes: %s is not an object, ignored", jsonencode(entry)) if entry != null && !can(keys(entry))], []),
        flatten([for entry in ${entries} : [for key in keys(entry) : format(
          "customizations.kubernetes %s is not a setting this template reads (%s); it is ignored.",
          jsonencode(key), ${KUBERNETES_CUSTOMIZATION_KEYS.join(", ")}) if !contains(${KUBERNETES_CUSTOMIZATION_KEYS}, key)]]),
        ${notObject("resources")},
        ${notObject("resources.requests")},
        ${notObject("resources.limits")}
      )`,
    ).expression;
    this.placementShapeWarnings = locals.add(
      "k8s_placement_shape_warnings",
      hcl`concat(
        ${notObject("nodeSelector")},
        [for entry in ${entries} : format("customizations.kubernetes tolerations: %s is not a list, ignored", jsonencode(entry.tolerations))
          if try(entry.tolerations, null) != null && !can(concat(entry.tolerations, []))],
        flatten([for entry in ${entries} : [
          for toleration in entry.tolerations : format(
            "customizations.kubernetes tolerations: %s is not a valid toleration, ignored", jsonencode(toleration))
          if !can(keys(toleration)) || ${malformed("toleration")}
        ] if can(concat(entry.tolerations, []))])
      )`,
    ).expression;
  }
}

/**
 * HCL for "a string or number as its string, anything else `fallback`". The JSON text
 * tells the type apart: only strings start with `"`, only numbers with a digit or `-`.
 * Errors in the branch not taken are not reported, so tostring() of an object is safe.
 */
export function scalarString(expression: string, fallback: string): IResolvable {
  return hclRaw(
    `(can(regex("^[\\"0-9-]", jsonencode(${expression}))) ? tostring(${expression}) : ${fallback})`,
  );
}
