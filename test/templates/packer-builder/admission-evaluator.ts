import { isCelError, run } from "@bufbuild/cel";

// Evaluates a generated ValidatingAdmissionPolicy as the API server does, offline, with a real
// CEL evaluator (@bufbuild/cel): its match condition, then its variables in order (each sees
// the earlier ones), then each validation and, for a refusal, its message.

type Obj = Record<string, any>;

/** The CEL of a ValidatingAdmissionPolicy document. */
export interface CelPolicy {
  readonly matchConditions: readonly { expression: string }[];
  readonly variables: readonly { name: string; expression: string }[];
  readonly validations: readonly { expression: string; messageExpression: string }[];
}

/** Not matched (the policy does not apply), or the messages of the validations that refuse. */
export type Verdict = { matched: false } | { matched: true; refusals: string[] };

/** The CEL of `doc` (a parsed ValidatingAdmissionPolicy). */
export function celPolicy(doc: Obj): CelPolicy {
  return {
    matchConditions: doc.spec.matchConditions,
    variables: doc.spec.variables,
    validations: doc.spec.validations,
  };
}

function evaluate(expression: string, bindings: Obj): unknown {
  const result = run(expression, bindings as never);
  if (isCelError(result)) throw new Error(`CEL error in ${expression}: ${result.message}`);
  return result;
}

/** What the API server decides for a request (`request`, `object`, `oldObject`) under `policy`. */
export function decide(policy: CelPolicy, bindings: Obj): Verdict {
  if (!policy.matchConditions.every((c) => evaluate(c.expression, bindings) === true)) {
    return { matched: false };
  }
  const variables: Obj = {};
  for (const v of policy.variables) {
    variables[v.name] = evaluate(v.expression, { ...bindings, variables });
  }
  const scope = { ...bindings, variables };
  const refusals = policy.validations
    .filter((v) => evaluate(v.expression, scope) !== true)
    .map((v) => String(evaluate(v.messageExpression, scope)));
  return { matched: true, refusals };
}
