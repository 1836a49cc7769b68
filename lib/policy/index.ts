/**
 * The template policies: synth-time checks every TemplateStack applies to itself (see
 * docs/security.md for what each protects). Synthesis fails at the first element that
 * breaks one, with the construct path, the rule and the reason.
 */
import { Aspects, TerraformStack, type IAspect, type IConstruct } from "../core/cdk";
import { ContainerResourceLimits } from "./container-resource-limits";
import { DataVolumeSizeFixed } from "./data-volume-size-fixed";
import { HostNamespaces } from "./host-namespaces";
import { HostPathVolumes } from "./host-path-volumes";
import { IdentitiesSurviveStop } from "./identities-survive-stop";
import { InspectableResources } from "./inspectable-resources";
import { NoRbacAuthoring } from "./no-rbac-authoring";
import {
  isInspected,
  PolicyContext,
  PolicyViolationError,
  synthesizedElement,
  type PolicyRule,
} from "./policy-rule";
import { PrivilegedContainers } from "./privileged-containers";
import { RoleBindingSubjects } from "./role-binding-subjects";

export { PolicyViolationError, PolicyRule, declareLimits } from "./policy-rule";
export { PRIVILEGED_GATE } from "./privileged-containers";
export { HOST_PATH_GATE } from "./host-path-volumes";
export { HOST_NAMESPACE_GATES } from "./host-namespaces";

/** One instance of every rule, in the order they run. */
export function templatePolicies(): PolicyRule[] {
  return [
    new NoRbacAuthoring(),
    new InspectableResources(),
    new RoleBindingSubjects(),
    new PrivilegedContainers(),
    new HostPathVolumes(),
    new HostNamespaces(),
    new ContainerResourceLimits(),
    new IdentitiesSurviveStop(),
    new DataVolumeSizeFixed(),
  ];
}

/** Adds every template policy to `scope` (a stack): they run when the app synthesizes. */
export function applyTemplatePolicies(scope: IConstruct): void {
  Aspects.of(scope).add(new TemplatePolicies(templatePolicies()));
}

/**
 * The rules as one aspect, so that each resource is resolved once for all of them and the
 * stack's locals and variables are read once per synthesis (the aspect visits the stack,
 * where it is added, before anything below it). Throws at the first broken rule, checking
 * node by node in rule order, as separate aspects would.
 */
class TemplatePolicies implements IAspect {
  private context: PolicyContext | undefined;

  constructor(private readonly rules: readonly PolicyRule[]) {}

  visit(node: IConstruct): void {
    if (TerraformStack.isStack(node)) {
      this.context = PolicyContext.fresh(node);
      return;
    }
    if (!isInspected(node)) return;
    const element = synthesizedElement(node);
    if (!element) return;
    const context = this.context ?? PolicyContext.of(TerraformStack.of(node));
    for (const rule of this.rules) {
      const reasons = rule.check(element, context);
      if (reasons.length > 0) throw new PolicyViolationError(node.node.path, rule.id, reasons);
    }
  }
}

/** One broken rule at one construct. */
export interface PolicyFinding {
  readonly constructPath: string;
  readonly rule: string;
  readonly reasons: readonly string[];
}

/**
 * Every violation under `scope`, without throwing: for tests and reports that want the
 * whole list rather than the first failure.
 */
export function findPolicyViolations(scope: IConstruct): PolicyFinding[] {
  const findings: PolicyFinding[] = [];
  const rules = templatePolicies();
  for (const node of scope.node.findAll()) {
    for (const rule of rules) {
      const reasons = rule.reasonsFor(node);
      if (reasons.length > 0)
        findings.push({ constructPath: node.node.path, rule: rule.id, reasons });
    }
  }
  return findings;
}
