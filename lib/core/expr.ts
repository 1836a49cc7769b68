/**
 * `Expr<T>`: the one expression type of the library, typed by what the expression evaluates to
 * (`Expr<string>`, `Expr<number>`, `Expr<boolean>`, `Expr<string[]>`, `Expr<Record<…>>`, or
 * `Expr<unknown>` when a caller does not say). It is a cdktf token (an `IResolvable`), so it is
 * passed as it is to another expression, a construct's prop or a binding's attribute (through
 * `asString`, `asNumber`, `asList` or `asStringMap` where the binding wants a primitive).
 * Nothing else in the library builds HCL text: a local's value and every reference to it are
 * `Expr`s (NamedLocals), and the writer (lib/private/hcl-writer.ts) renders what they resolve to.
 *
 * `hcl`: write a Terraform expression as HCL text, with cdktf tokens (variables,
 * locals, attributes, other `hcl` expressions) interpolated as expressions.
 *
 *   hcl`max(${cpuVariable.numberValue}, ${minimum})`   →  "${max(var.cpu, 2)}"
 *
 * Apply-time logic is easier to review when the TypeScript reads like the HCL it
 * produces, and operators read that HCL in Coder's template editor.
 *
 * How interpolated values are written:
 * - a token (a string/number/list/map token, or an IResolvable) → its bare expression;
 *   a nested `hcl` expression is wrapped in parentheses when an operator stands at its top
 *   level (`(a + b) * 2`), so precedence is kept, and only then (`max(try(a, 0), 1)`);
 * - a plain string → an HCL string literal (quotes, backslashes, control characters,
 *   `${` and `%{` escaped), so repository data can never become code;
 * - a number or boolean → its literal; null/undefined → `null`;
 * - an array → a tuple `[a, b]`; a plain object → an object `{ "k" = v }`.
 * A string that mixes literal text with tokens is rejected: write it in HCL instead
 * (`format("%sGi", ${x})`), so it is clear which parts are code.
 *
 * The template text is taken raw (`\n` stays the two characters HCL reads as a newline
 * escape), and line breaks with their indentation collapse to one space (none next to
 * brackets), so multi-line TypeScript gives a one-line expression in the JSON.
 */
import { IResolvable, IResolveContext, Token, Tokenization } from "./cdk";
import { escapeTemplateLiteral } from "./escape";

/** Anything `hcl` can interpolate. */
export type HclValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | IResolvable
  | readonly HclValue[]
  | { readonly [key: string]: HclValue };

/**
 * A Terraform expression that evaluates to a `T`; resolves to `${…}`, or bare text (in
 * parentheses) inside another expression. `T` is for the reader and the type checker only.
 */
export class Expr<T = unknown> implements IResolvable {
  public readonly creationStack: string[] = [];
  /** Never read: it only makes `Expr<string>` and `Expr<number>` different types. */
  declare private readonly evaluatesTo?: T;

  constructor(
    private readonly fragments: readonly string[],
    private readonly values: readonly HclValue[],
    /** A lone reference: needs no parentheses inside another expression. */
    private readonly reference = false,
  ) {}

  /** An expression that reads a token (a local, a variable, an attribute) as it is. */
  public static of<T = unknown>(token: HclValue): Expr<T> {
    return new Expr<T>(["", ""], [token], true);
  }

  public resolve(context: IResolveContext): string {
    const nested = context.suppressBraces === true;
    // Tokens resolved from here on are inside an expression: they render bare, without ${ }.
    context.suppressBraces = true;
    let text = this.fragments[0];
    this.values.forEach((value, index) => {
      text += renderValue(context, value) + this.fragments[index + 1];
    });
    // Only operators need parentheses inside another expression: `local.x`, `try(a, b)` and
    // `[for …]` stay as they are, `a + b` becomes `(a + b)`.
    if (nested) return this.reference || isPrimary(text) ? text : `(${text})`;
    return `\${${text}}`;
  }

  /**
   * A reference by name that is no token: a `for` expression's variable, an attribute path
   * under one (`entry.resources.requests`), a dynamic block's iterator or `path.module`.
   * Only names and dots pass, so no data can become code through it.
   */
  public static ref<T = unknown>(path: string): Expr<T> {
    if (!REFERENCE_PATH.test(path)) {
      throw new Error(`Expr.ref: ${JSON.stringify(path)} is not a name or a dotted path of names`);
    }
    return new Expr<T>([path], [], true);
  }

  /**
   * A decimal number written as it is, for a literal a JavaScript number cannot hold exactly
   * (2^60, a quantity suffix's factor). Only digits, one point and a sign pass.
   */
  public static number(decimal: string): Expr<number> {
    if (!DECIMAL.test(decimal)) {
      throw new Error(`Expr.number: ${JSON.stringify(decimal)} is not a decimal number`);
    }
    return new Expr<number>([decimal], [], true);
  }

  /**
   * `file("${path.module}/<relPath>")`: the text of a file shipped with the template, read
   * wherever Coder unpacks it. The path is plain segments (letters, digits, `._-`), no `..`.
   */
  public static moduleFile(relPath: string): Expr<string> {
    if (!isPlainRelativePath(relPath)) {
      throw new Error(`Expr.moduleFile: ${JSON.stringify(relPath)} is not a plain relative path`);
    }
    return new Expr<string>([`file("\${path.module}/${relPath}")`], [], true);
  }

  /** As a string token, for a binding's string attribute. */
  public get asString(): string {
    return Token.asString(this);
  }

  /** As a number token, for a binding's number attribute. */
  public get asNumber(): number {
    return Token.asNumber(this);
  }

  /** As a list token, for a binding's list attribute. */
  public get asList(): string[] {
    return Token.asList(this);
  }

  /** As a map token, for a binding's map attribute. */
  public get asStringMap(): Record<string, string> {
    return Token.asStringMap(this);
  }

  public toString(): string {
    return Token.asString(this);
  }
}

/**
 * Tagged template: an HCL expression with interpolated tokens, `hcl<number>\`…\`` when the
 * caller says what it evaluates to.
 */
export function hcl<T = unknown>(strings: TemplateStringsArray, ...values: HclValue[]): Expr<T> {
  const fragments = strings.raw.map((raw, index) => {
    let text = raw
      .replace(/([([{])[ \t]*\r?\n\s*/g, "$1")
      .replace(/[ \t]*\r?\n\s*([)\]}])/g, "$1")
      .replace(/[ \t]*\r?\n\s*/g, " ");
    if (index === 0) text = text.trimStart();
    if (index === strings.raw.length - 1) text = text.trimEnd();
    return text;
  });
  return new Expr<T>(fragments, values);
}

const REFERENCE_PATH = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/;
const DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;
const PLAIN_SEGMENT = /^[A-Za-z0-9._-]+$/;

/**
 * Whether `relPath` is a plain path inside the template folder: segments of letters, digits
 * and `._-` between single slashes, none of them `.` or `..` (a shipped file's, and so the
 * only kind {@link Expr.moduleFile} reads).
 */
export function isPlainRelativePath(relPath: string): boolean {
  return relPath
    .split("/")
    .every((segment) => PLAIN_SEGMENT.test(segment) && !/^\.+$/.test(segment));
}

/** An HCL string literal for `text` (`${`/`%{` escaped, so it never interpolates). */
export function hclString(text: string): string {
  return escapeTemplateLiteral(JSON.stringify(text));
}

/**
 * Whether `text` is one primary expression (a name or path, a call, an index, a literal, a
 * bracketed whole), which keeps its meaning inside any other expression: nothing but names,
 * dots and brackets at its top level. When unsure (a string with a template sequence), no.
 */
function isPrimary(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i = endOfPlainString(text, i);
      if (i < 0) return false;
    } else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      if (--depth < 0) return false;
    } else if (depth === 0 && !/[A-Za-z0-9_.]/.test(c)) return false;
  }
  return depth === 0 && text.length > 0;
}

/** The index of the quote that ends the string starting at `start`, or -1 when it holds a
 * template sequence (or does not end). */
function endOfPlainString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === '"') return i;
    else if ((c === "$" || c === "%") && (text[i + 1] === "{" || text[i + 1] === c)) return -1;
  }
  return -1;
}

function renderValue(context: IResolveContext, value: HclValue): string {
  if (value === null || value === undefined) return "null";
  if (Tokenization.isResolvable(value)) return resolveBare(context, value);
  if (typeof value === "string") {
    if (!Token.isUnresolved(value)) return hclString(value);
    const parts = Tokenization.reverseString(value);
    const single =
      parts.literals.length === 0 &&
      parts.escapes.length === 0 &&
      parts.tokens.length + parts.intrinsic.length === 1;
    if (!single) {
      throw new Error(
        `hcl: the string ${JSON.stringify(value)} mixes text and tokens; write it as an HCL ` +
          `expression (e.g. format() or join()) inside the template instead`,
      );
    }
    return resolveBare(context, value);
  }
  if (typeof value === "number") {
    if (Token.isUnresolved(value)) return resolveBare(context, value);
    if (!Number.isFinite(value)) throw new Error(`hcl: ${value} is not a finite number`);
    return String(value);
  }
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) {
    if (Token.isUnresolved(value)) return resolveBare(context, value);
    return `[${value.map((item: HclValue) => renderValue(context, item)).join(", ")}]`;
  }
  const record = value as { readonly [key: string]: HclValue };
  if (Tokenization.reverse(record).length > 0 && Object.keys(record).length === 1) {
    // A map token (Token.asStringMap etc.) is an object with one encoded key.
    return resolveBare(context, record);
  }
  const entries = Object.keys(record).map(
    (key) => `${hclString(key)} = ${renderValue(context, record[key])}`,
  );
  return `{ ${entries.join(", ")} }`;
}

function resolveBare(context: IResolveContext, value: unknown): string {
  context.suppressBraces = true;
  const resolved: unknown = context.resolve(value);
  if (typeof resolved !== "string") {
    throw new Error(`hcl: a token resolved to ${JSON.stringify(resolved)}, not an expression`);
  }
  return resolved;
}
