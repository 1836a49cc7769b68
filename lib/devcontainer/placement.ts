/**
 * Apply time: where the workspace pod may run. The node selector always pins the
 * agent's architecture; a repository's `customizations.kubernetes` nodeSelector and
 * tolerations count only when the operator allows node placement, and tolerations
 * only when Kubernetes would accept them (an invalid one would fail the Deployment).
 * Everything ignored becomes a warning.
 */
import type { DeploymentV1SpecTemplateSpecAffinity } from "@cdktf/provider-kubernetes/lib/deployment-v1";
import { WORKSPACE_POD_ANTI_AFFINITY } from "../constructs/workspace-deployment";
import { Construct } from "../core/cdk";
import { Expr, hcl } from "../core/expr";
import type { DevcontainerKubernetesCustomizations } from "./kubernetes-customizations";
import {
  LABEL_KEY_LONG_PREFIX_PATTERN,
  LABEL_KEY_PATTERN,
  LABEL_VALUE_PATTERN,
} from "./kubernetes-quantities";
import { NamedLocals } from "../core/named-locals";
import { ARCH_NODE_LABEL } from "../constructs/workspace-arch";

export { ARCH_NODE_LABEL };

/** Toleration effects Kubernetes accepts ("" means all effects). */
export const TOLERATION_EFFECTS: readonly string[] = [
  "",
  "NoSchedule",
  "PreferNoSchedule",
  "NoExecute",
];

/** Toleration operators Kubernetes accepts (null means Equal). */
export const TOLERATION_OPERATORS: readonly string[] = ["Equal", "Exists"];

export interface DevcontainerPlacementProps {
  /** customizations.kubernetes, parsed. */
  readonly customizations: DevcontainerKubernetesCustomizations;
  /** var.allow_node_placement (bool). */
  readonly allowNodePlacement: Expr<boolean>;
  /**
   * The architecture the agent runs on, the value of the kubernetes.io/arch selector.
   * @default "amd64"
   */
  readonly arch?: Expr<string>;
  /** Prefix of every local's name (tests plan many instances at once). @default "" */
  readonly localPrefix?: string;
}

/** Node selector, tolerations and their warnings, as named locals. */
export class DevcontainerPlacement extends Construct {
  /** `local.node_selector`: map of label → value, always with kubernetes.io/arch. */
  public readonly nodeSelector: Expr<Record<string, string>>;
  /**
   * `local.tolerations`: list of `{ key, operator, value, effect, toleration_seconds }`
   * (strings or null), for a dynamic `toleration` block; empty unless placement is allowed.
   */
  public readonly tolerations: Expr<Record<string, string | null>[]>;
  /** `local.placement_warnings`: list of warning lines. */
  public readonly warnings: Expr<string[]>;
  /** The pod's affinity (static): {@link WORKSPACE_POD_ANTI_AFFINITY}. */
  public readonly affinity: DeploymentV1SpecTemplateSpecAffinity = WORKSPACE_POD_ANTI_AFFINITY;

  constructor(scope: Construct, id: string, props: DevcontainerPlacementProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    const k8s = props.customizations;
    const allow = props.allowNodePlacement;
    const arch = props.arch ?? Expr.of<string>("amd64");

    const keyPattern = locals.add<string>(
      "label_key_pattern",
      LABEL_KEY_PATTERN,
      "Every selector key is checked as the API server checks a label key: written once.",
    );
    const valuePattern = locals.add<string>(
      "label_value_pattern",
      LABEL_VALUE_PATTERN,
      "Every selector value is checked as the API server checks a label value: written once.",
    );
    const isKey = (key: Expr<string>) =>
      hcl`can(regex(${keyPattern}, ${key})) && !can(regex(${LABEL_KEY_LONG_PREFIX_PATTERN}, ${key}))`;
    const isValue = (value: Expr<string>) => hcl`can(regex(${valuePattern}, ${value}))`;

    const selectorChecks = locals.add<Record<string, boolean>>(
      "node_selector_checks",
      hcl`{ for label, value in ${k8s.nodeSelector} : label => ${isKey(Expr.ref("label"))} && value != null && ${isValue(hcl`value == null ? "" : value`)} }`,
      "A selector label the API server would refuse (a bad key or value) is dropped, with a warning.",
    );
    const nodeSelector = locals.add<Record<string, string>>(
      "node_selector",
      hcl`merge(
        { for label, value in ${k8s.nodeSelector} : label => value if ${allow} && ${selectorChecks}[label] },
        { ${ARCH_NODE_LABEL} = ${arch} }
      )`,
      "The template's own key is merged last, so it overwrites a repository's value.",
    );

    const checked = locals.add<unknown[]>(
      "toleration_checks",
      hcl`[for toleration in ${k8s.tolerations} : {
        toleration = toleration,
        valid = try(
          contains(${TOLERATION_OPERATORS}, toleration.operator == null ? "Equal" : toleration.operator)
          && contains(${TOLERATION_EFFECTS}, toleration.effect == null ? "" : toleration.effect)
          && (toleration.operator == "Exists" || (toleration.key != null && toleration.key != ""))
          && !(toleration.operator == "Exists" && toleration.value != null && toleration.value != "")
          && (toleration.key == null || toleration.key == "" || ${isKey(Expr.ref("toleration.key"))})
          && (toleration.operator == "Exists" || ${isValue(hcl`toleration.value == null ? "" : toleration.value`)})
          && (toleration.toleration_seconds == null
            || (toleration.effect == "NoExecute" && can(regex("^-?[0-9]{1,18}$", toleration.toleration_seconds)))),
          false)
      }]`,
      "One toleration Kubernetes rejects fails the Deployment: its rules are checked first, here.",
    );
    // effect "" means all effects; the kubernetes provider refuses "", null says the same.
    const tolerations = locals.add<Record<string, string | null>[]>(
      "tolerations",
      hcl`[for check in ${checked} : merge(check.toleration, {
        effect = check.toleration.effect == "" ? null : check.toleration.effect
      }) if ${allow} && check.valid]`,
      'The kubernetes provider refuses effect "" (all effects): null says the same to Kubernetes.',
    );

    const warnings = this.warningLines(locals, props, arch, selectorChecks, checked);

    this.nodeSelector = nodeSelector;
    this.tolerations = tolerations;
    this.warnings = warnings;
  }

  /** `placement_warnings`: one line per nodeSelector label or toleration the pod does not get, and why. */
  private warningLines(
    locals: NamedLocals,
    props: DevcontainerPlacementProps,
    arch: Expr<string>,
    selectorChecks: Expr<Record<string, boolean>>,
    checked: Expr<unknown[]>,
  ): Expr<string[]> {
    const k8s = props.customizations;
    const allow = props.allowNodePlacement;
    // The toleration as the repository wrote it (JSON names), without the fields it left out.
    const asWritten = hcl`jsonencode({ for field, value in {
      key = check.toleration.key, operator = check.toleration.operator, value = check.toleration.value,
      effect = check.toleration.effect, tolerationSeconds = check.toleration.toleration_seconds
    } : field => value if value != null })`;
    return locals.add<string[]>(
      "placement_warnings",
      hcl`concat(
        ${k8s.placementShapeWarnings},
        [for check in ${checked} : format(
          "customizations.kubernetes tolerations: %s is not a valid toleration, ignored", ${asWritten})
          if ${allow} && !check.valid],
        [for label, value in ${k8s.nodeSelector} : format(
          "customizations.kubernetes nodeSelector[%s] = %s is not a valid node label, ignored",
          jsonencode(label), value == null ? ${k8s.nodeSelectorJson}[label] : jsonencode(value))
          if ${allow} && !${selectorChecks}[label] && label != ${ARCH_NODE_LABEL}],
        try(${allow} && ${k8s.nodeSelector}[${ARCH_NODE_LABEL}] != ${arch}, false) ? [format(
          "customizations.kubernetes nodeSelector[%s] = %s ignored: the template sets %s",
          jsonencode(${ARCH_NODE_LABEL}), ${k8s.nodeSelectorJson}[${ARCH_NODE_LABEL}], jsonencode(${arch}))] : [],
        !${allow} && length(${k8s.nodeSelector}) + length(${k8s.tolerations}) > 0 ? [format(
          "customizations.kubernetes %s ignored: the template variable allow_node_placement is off",
          join(" and ", compact([
            length(${k8s.nodeSelector}) > 0 ? "nodeSelector" : "",
            length(${k8s.tolerations}) > 0 ? "tolerations" : ""
          ])))] : []
      )`,
    );
  }
}
