import { soleExpression } from "./expressions";
import {
  isRecord,
  type PolicyContext,
  PolicyRule,
  type ServiceAccountInStack,
  type SynthesizedElement,
} from "./policy-rule";

const ROLE_BINDING = /^kubernetes_role_binding(_v\d+)?$/;

/**
 * A RoleBinding grants its role to the workspace's own ServiceAccounts only: every subject
 * is a ServiceAccount that this template creates, on the same cluster (provider), named and
 * namespaced as that account (the same value, or a reference to its metadata). A User, a
 * Group (`system:authenticated`, `system:serviceaccounts`) or another workload's account
 * would hand the bound permissions to someone other than the workspace. Subjects from a
 * `dynamic` block cannot be inspected and are refused.
 */
export class RoleBindingSubjects extends PolicyRule {
  readonly id = "role-binding-subjects";

  check(element: SynthesizedElement, context: PolicyContext): string[] {
    if (element.kind !== "resource" || !ROLE_BINDING.test(element.type)) return [];
    const reasons: string[] = [];
    const dynamic = isRecord(element.body.dynamic) ? element.body.dynamic : {};
    if (dynamic.subject !== undefined) {
      reasons.push(
        `${element.address}: subjects from a dynamic block cannot be inspected; list the workspace's ServiceAccounts`,
      );
    }
    const given = element.body.subject;
    const subjects =
      given === undefined || given === null ? [] : Array.isArray(given) ? given : [given];
    if (typeof given === "string") {
      reasons.push(`${element.address}: subjects given as an expression cannot be inspected`);
      return reasons;
    }
    const provider = typeof element.body.provider === "string" ? element.body.provider : undefined;
    const accounts = context.serviceAccounts.filter((sa) => sa.provider === provider);
    subjects.forEach((subject, i) => {
      const at = `${element.address} subject[${i}]`;
      if (!isRecord(subject)) {
        reasons.push(`${at}: cannot be inspected`);
        return;
      }
      const described = `${String(subject.kind)} ${String(subject.namespace ?? "")}/${String(subject.name)}`;
      const apiGroup = subject.api_group;
      const isAccount =
        subject.kind === "ServiceAccount" &&
        (apiGroup === undefined || apiGroup === null || apiGroup === "");
      if (!isAccount || !accounts.some((sa) => names(subject, sa))) {
        reasons.push(
          `${at} (${described}): a RoleBinding may bind only the workspace's own ServiceAccounts ` +
            `(a kubernetes_service_account of this template on the same cluster${provider ? `, ${provider}` : ""})`,
        );
      }
    });
    return reasons;
  }
}

/** Whether the subject names `sa`: the same name and namespace, or references to its metadata. */
function names(subject: Record<string, unknown>, sa: ServiceAccountInStack): boolean {
  return (
    sameValue(subject.name, sa.name, `${sa.address}.metadata[0].name`) &&
    sameValue(subject.namespace, sa.namespace, `${sa.address}.metadata[0].namespace`)
  );
}

function sameValue(value: unknown, expected: unknown, reference: string): boolean {
  if (value === undefined || value === null) return false;
  if (value === expected) return true;
  const expression = soleExpression(value)?.replace(/\.metadata\.0\./, ".metadata[0].");
  return expression === reference;
}
