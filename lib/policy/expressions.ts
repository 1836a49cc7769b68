/**
 * Reading Terraform expressions out of synthesized JSON strings, for the policy checks.
 *
 * A JSON string in a .tf.json file is a template: `${ … }` interpolates an expression,
 * `$${` and `%%{` are escaped literals. The checks here are deliberately small: they find
 * the interpolations of a string, the references in them, and whether an expression is
 * "gated" by a boolean variable (false whenever the variable is false). The scanning itself
 * (strings, brackets, templates) is hcl-template.ts's, the writer's.
 */
import {
  closingBracket,
  quotedStringEnd,
  splitTopLevel,
  templateParts,
} from "../private/hcl-template";

export { splitTopLevel };

/** The bodies of the `${ … }` interpolations (and `%{ … }` directives) of a template string. */
export function interpolations(template: string): string[] {
  return templateParts(template)
    .filter((part) => part.kind === "sequence")
    .map((part) => part.text.slice(2, -1).trim());
}

/** The whole value is one interpolation (`"${expr}"`): its expression, else undefined. */
export function soleExpression(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  if (!trimmed.startsWith("${") || !trimmed.endsWith("}")) return undefined;
  if (closingBracket(trimmed, 1) !== trimmed.length - 1) return undefined;
  return trimmed.slice(2, -1).trim();
}

/** Removes parentheses that wrap the whole expression: `((a && b))` → `a && b`. */
export function stripOuterParens(expr: string): string {
  let e = expr.trim();
  while (e.startsWith("(") && closingBracket(e, 0) === e.length - 1) e = e.slice(1, -1).trim();
  return e;
}

/** `cond ? a : b` at the top level of the expression, else undefined. */
export function topLevelConditional(
  expr: string,
): { condition: string; whenTrue: string; whenFalse: string } | undefined {
  const [condition, ...rest] = splitTopLevel(expr, "?");
  if (rest.length === 0) return undefined;
  const branches = splitTopLevel(rest.join("?"), ":");
  if (branches.length < 2) return undefined;
  return { condition, whenTrue: branches[0], whenFalse: branches.slice(1).join(":") };
}

/** Values that turn a feature off: the else-branch of a gated conditional. */
const OFF_VALUES = new Set(["false", "null", "[]", "{}", "0", '""']);

/**
 * Whether `expr` is false/empty whenever `var.<gate>` is false, judged from its shape:
 * - `var.gate`, or a top-level conjunction with `var.gate` as one operand
 *   (`var.gate && x`, `(x && var.gate) && y`);
 * - `C ? X : off` where `C` is gated and `off` is false, null, [] or {}.
 * A top-level `||` is never gated. `resolveLocal` expands `local.x` operands.
 */
export function isGatedBy(
  expr: string,
  gate: string,
  resolveLocal: (name: string) => string | undefined = () => undefined,
  depth = 0,
): boolean {
  if (depth > 10) return false;
  const e = stripOuterParens(expr);
  const local = /^local\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(e);
  if (local) {
    const body = resolveLocal(local[1]);
    return body !== undefined && isGatedBy(body, gate, resolveLocal, depth + 1);
  }
  const conditional = topLevelConditional(e);
  if (conditional) {
    return (
      isGatedBy(conditional.condition, gate, resolveLocal, depth + 1) &&
      OFF_VALUES.has(conditional.whenFalse.replace(/\s+/g, ""))
    );
  }
  if (splitTopLevel(e, "||").length > 1) return false;
  const operands = splitTopLevel(e, "&&");
  if (operands.length === 1) return e === `var.${gate}`;
  return operands.some((operand) => isGatedBy(operand, gate, resolveLocal, depth + 1));
}

/** A reference to a named object in an expression: `var.x`, `local.y`, `data.t.n`, `t.n`. */
export interface ExpressionReference {
  /** The whole matched text, e.g. `data.coder_workspace.me.start_count`. */
  readonly text: string;
}

const REFERENCE =
  /(?<![A-Za-z0-9_.\]"])((?:data\.)?[A-Za-z_][A-Za-z0-9_-]*\.[A-Za-z_][A-Za-z0-9_-]*(?:\[[^\]]*\])?(?:\.[A-Za-z_][A-Za-z0-9_-]*(?:\[[^\]]*\])?)*)/g;

/**
 * The references in an expression (outside string literals), e.g. `var.a`, `local.b.c`,
 * `coder_agent.main.token`, `data.coder_external_auth.git[0].access_token`. String keys in
 * an index are masked: `local.m["k"]` → `local.m["_"]`.
 */
export function references(expr: string): string[] {
  const found: string[] = [];
  let code = "";
  for (let i = 0; i < expr.length; i++) {
    if (expr[i] === '"') {
      const end = quotedStringEnd(expr, i);
      // Interpolations inside a nested string literal are expressions too.
      for (const inner of interpolations(expr.slice(i + 1, end))) found.push(...references(inner));
      // The literal's text is masked so it can never be read as a reference.
      code += '"_"';
      i = end;
    } else code += expr[i];
  }
  for (const m of code.matchAll(REFERENCE)) found.push(m[1]);
  return found;
}

/** Every reference in every interpolation of a JSON value (strings at any depth). */
export function referencesIn(value: unknown): string[] {
  if (typeof value === "string") return interpolations(value).flatMap(references);
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (value !== null && typeof value === "object")
    return Object.values(value).flatMap(referencesIn);
  return [];
}
