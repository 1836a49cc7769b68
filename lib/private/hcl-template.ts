/**
 * The project's one scanner of Terraform templates and expressions, shared by the HCL writer
 * (hcl-writer.ts, hcl-layout.ts) and the policies' expression reader (policy/expressions.ts).
 *
 * Splitting Terraform template strings (every string of a `.tf.json` file is one) into their
 * literal text and their `${ … }` / `%{ … }` sequences, so that a string can be written in
 * HCL native syntax with the same meaning: the literal parts take HCL string escapes, the
 * sequences are HCL expressions and are copied as they are.
 *
 * The scanner follows nesting: brackets, quoted strings inside a sequence, and templates
 * inside those strings. It refuses what it does not follow (heredocs and comments inside a
 * sequence, unbalanced brackets) with an error naming the string, rather than guess.
 */

/** A part of a template: literal text (escapes `$${` / `%%{` kept) or a whole sequence. */
export type TemplatePart =
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "sequence"; readonly text: string };

/** The parts of `template`, in order; adjacent literal text is one part. */
export function templateParts(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = "";
  let i = 0;
  while (i < template.length) {
    // Literal text up to the next `$` or `%`, in one slice: most of a template is text.
    const next = nextOf(SEQUENCE_START, template, i);
    literal += template.slice(i, next);
    i = next;
    if (i >= template.length) break;
    if (template.startsWith("$${", i) || template.startsWith("%%{", i)) {
      literal += template.slice(i, i + 3);
      i += 3;
    } else if (template.startsWith("${", i) || template.startsWith("%{", i)) {
      const end = sequenceEnd(template, i + 2);
      if (literal !== "") parts.push({ kind: "literal", text: literal });
      literal = "";
      parts.push({ kind: "sequence", text: template.slice(i, end + 1) });
      i = end + 1;
    } else {
      literal += template[i];
      i++;
    }
  }
  if (literal !== "") parts.push({ kind: "literal", text: literal });
  return parts;
}

/** Characters that may start a template sequence or its escape. */
const SEQUENCE_START = /[$%]/g;
/** Characters that matter inside a sequence's expression (see {@link sequenceEnd}). */
const IN_SEQUENCE = /["()[\]{}<#/]/g;
/** Characters that matter inside a quoted string (see {@link quotedEnd}). */
const IN_QUOTED = /[\\"$%]/g;

/**
 * Index of the first character at or after `from` that `pattern` (global) matches, else the
 * text's length: the scanners jump over the characters they have nothing to do with.
 */
function nextOf(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? text.length;
}

/**
 * The expression of a template that is one `${ … }` interpolation and nothing else (such a
 * template yields the expression's value unchanged, of any type), else undefined. Strip
 * markers (`${~`, `~}`) are kept as templates.
 */
export function soleInterpolation(template: string): string | undefined {
  const parts = templateParts(template);
  if (parts.length !== 1 || parts[0].kind !== "sequence") return undefined;
  const text = parts[0].text;
  if (!text.startsWith("${") || text.startsWith("${~") || text.endsWith("~}")) return undefined;
  return text.slice(2, -1).trim();
}

/** Index of the `}` that closes the sequence whose expression starts at `start`. */
function sequenceEnd(text: string, start: number): number {
  const closers: string[] = [];
  for (let i = nextOf(IN_SEQUENCE, text, start); i < text.length;) {
    const c = text[i];
    if (c === '"') {
      i = quotedEnd(text, i + 1);
    } else if (c === "(" || c === "[" || c === "{") {
      closers.push(c === "(" ? ")" : c === "[" ? "]" : "}");
    } else if (c === ")" || c === "]" || c === "}") {
      if (closers.length === 0 && c === "}") return i;
      if (closers.pop() !== c) throw unsupported(text, `unbalanced "${c}"`);
    } else if (text.startsWith("<<", i)) {
      throw unsupported(text, "a heredoc inside an interpolation");
    } else if (c === "#" || text.startsWith("//", i) || text.startsWith("/*", i)) {
      throw unsupported(text, "a comment inside an interpolation");
    }
    i = nextOf(IN_SEQUENCE, text, i + 1);
  }
  throw unsupported(text, "an interpolation that is never closed");
}

/**
 * Index of the `"` that closes the quoted string opened by the `"` at `open`, inside an HCL
 * expression: escapes and templates nested in the string are followed.
 */
export function quotedStringEnd(text: string, open: number): number {
  return quotedEnd(text, open + 1);
}

/**
 * Index of the bracket closing the one at `open` in an HCL expression, quoted strings (and
 * the templates inside them) followed; the text's length when it is never closed.
 */
export function closingBracket(text: string, open: number): number {
  const closers: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i = quotedEnd(text, i + 1);
      continue;
    }
    if (c === "{" || c === "(" || c === "[") closers.push(c === "{" ? "}" : c === "(" ? ")" : "]");
    else if (c === "}" || c === ")" || c === "]") {
      closers.pop();
      if (closers.length === 0) return i;
    }
  }
  return text.length;
}

/**
 * Splits an expression at top-level occurrences of `separator` (outside brackets and
 * strings). `splitTopLevel("a && (b || c) && d", "&&")` → `["a", "(b || c)", "d"]`.
 */
export function splitTopLevel(expr: string, separator: string): string[] {
  const parts: string[] = [];
  let last = 0;
  for (const i of topLevelIndexes(expr, separator)) {
    parts.push(expr.slice(last, i).trim());
    last = i + separator.length;
  }
  parts.push(expr.slice(last).trim());
  return parts;
}

/**
 * Index of the first top-level `separator` in `expr` between `from` and `to` (outside
 * brackets and strings, depth counted from `from`), or -1.
 */
export function topLevelIndexOf(
  expr: string,
  separator: string,
  from = 0,
  to = expr.length,
): number {
  for (const i of topLevelIndexes(expr, separator, from, to)) return i;
  return -1;
}

/** Where `separator` stands at the top level of `expr` between `from` and `to`, in order. */
function* topLevelIndexes(
  expr: string,
  separator: string,
  from = 0,
  to = expr.length,
): Generator<number> {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const c = expr[i];
    if (c === '"') i = quotedEnd(expr, i + 1);
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (depth === 0 && expr.startsWith(separator, i)) {
      yield i;
      i += separator.length - 1;
    }
  }
}

/** Index of the `"` that closes a quoted string whose text starts at `start`. */
function quotedEnd(text: string, start: number): number {
  for (
    let i = nextOf(IN_QUOTED, text, start);
    i < text.length;
    i = nextOf(IN_QUOTED, text, i + 1)
  ) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
    else if (text.startsWith("$${", i) || text.startsWith("%%{", i)) i += 2;
    else if (text.startsWith("${", i) || text.startsWith("%{", i)) i = sequenceEnd(text, i + 2);
  }
  throw unsupported(text, "a string that is never closed");
}

function unsupported(template: string, what: string): Error {
  const shown = template.length > 200 ? `${template.slice(0, 200)}…` : template;
  return new Error(`template ${JSON.stringify(shown)}: ${what} is not supported here`);
}

/** One token of an HCL expression, as {@link expressionTokens} splits it. */
export interface ExpressionToken {
  /**
   * `string`: a whole quoted string (templates inside it included); `word`: an identifier,
   * keyword or number; `open`/`close`: a bracket; `comma`; `newline`: a line break inside
   * braces, where it separates items; `op`: any other punctuation (`.`, `...`, `?`, `:`,
   * `=`, `=>`, operators).
   */
  readonly kind: "string" | "word" | "open" | "close" | "comma" | "newline" | "op";
  readonly text: string;
}

const OPERATORS = ["...", "=>", "==", "!=", "<=", ">=", "&&", "||"];

/**
 * The tokens of an HCL expression, found with the same rules as {@link templateParts}
 * (strings and the templates inside them are followed, brackets must balance). Line breaks
 * count only inside an object's braces, where they separate items. Throws on what the
 * scanner does not follow (heredocs, comments, unbalanced brackets).
 */
const WORD_START = /[A-Za-z0-9_]/;
/**
 * A word at `lastIndex` (sticky: matching in place, not on a copy of the rest of the
 * expression, which made long expressions quadratic). HCL identifiers may hold dashes
 * (`a-b` is one name); numbers may have a fraction and an exponent.
 */
const WORD = /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|[A-Za-z_][A-Za-z0-9_-]*/y;

export function expressionTokens(expression: string): ExpressionToken[] {
  const tokens: ExpressionToken[] = [];
  const brackets: string[] = [];
  const push = (kind: ExpressionToken["kind"], text: string) => tokens.push({ kind, text });
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i];
    if (c === "\n") {
      if (brackets[brackets.length - 1] === "}") push("newline", "\n");
    } else if (c === " " || c === "\t" || c === "\r") {
      continue;
    } else if (c === '"') {
      const end = quotedEnd(expression, i + 1);
      push("string", expression.slice(i, end + 1));
      i = end;
    } else if (c === "(" || c === "[" || c === "{") {
      brackets.push(c === "(" ? ")" : c === "[" ? "]" : "}");
      push("open", c);
    } else if (c === ")" || c === "]" || c === "}") {
      if (brackets.pop() !== c) throw unsupported(expression, `unbalanced "${c}"`);
      push("close", c);
    } else if (c === ",") {
      push("comma", c);
    } else if (expression.startsWith("<<", i)) {
      throw unsupported(expression, "a heredoc");
    } else if (c === "#" || expression.startsWith("//", i) || expression.startsWith("/*", i)) {
      throw unsupported(expression, "a comment");
    } else if (WORD_START.test(c)) {
      WORD.lastIndex = i;
      const word = WORD.exec(expression);
      if (word === null) throw unsupported(expression, `the character "${c}"`);
      push("word", word[0]);
      i += word[0].length - 1;
    } else {
      const op = OPERATORS.find((o) => expression.startsWith(o, i)) ?? c;
      if (!/^[.?:=!<>+\-*/%&|]/.test(op)) throw unsupported(expression, `the character "${c}"`);
      push("op", op);
      i += op.length - 1;
    }
  }
  if (brackets.length > 0) throw unsupported(expression, "an unclosed bracket");
  return tokens;
}

/**
 * A reference at the root of an expression: its dotted names (`data.coder_workspace.me.id` →
 * `["data", "coder_workspace", "me", "id"]`, up to the first index or splat) and where each
 * name ends in the text the reference was found in (`ends[i]`: the index after `names[i]`).
 */
export interface Traversal {
  readonly names: readonly string[];
  readonly start: number;
  readonly ends: readonly number[];
}

/**
 * The references of `template` (a Terraform JSON string: literal text with `${ … }` and
 * `%{ … }` sequences), in order: only inside sequences, including the templates of quoted
 * strings nested in them. Literal text, escaped sequences (`$${`, `%%{`) and the literal
 * parts of nested strings are skipped, so a script that mentions `local.x` has no reference.
 * An attribute after a dot (`var.local.x`) is not a root. Throws, as {@link templateParts},
 * on what the scanner does not follow.
 */
export function templateTraversals(template: string): Traversal[] {
  const found: Traversal[] = [];
  scanTemplate(template, 0, template.length, false, found);
  return found;
}

/**
 * `template` with each reference that `rename` maps rewritten: `rename(traversal)` returns
 * the text for `traversal.names` up to `names[count - 1]` and that count, or undefined to
 * keep it. Every other byte stays.
 */
export function rewriteTraversals(
  template: string,
  rename: (t: Traversal) => { readonly text: string; readonly count: number } | undefined,
): string {
  let out = "";
  let last = 0;
  for (const t of templateTraversals(template)) {
    const renamed = rename(t);
    if (renamed === undefined) continue;
    out += template.slice(last, t.start) + renamed.text;
    last = t.ends[renamed.count - 1];
  }
  return last === 0 ? template : out + template.slice(last);
}

/**
 * Literal text and sequences from `from` to `to`; `quoted`: the text is inside an HCL quoted
 * string (backslash escapes apply).
 */
function scanTemplate(
  text: string,
  from: number,
  to: number,
  quoted: boolean,
  found: Traversal[],
): void {
  const next = quoted ? IN_QUOTED : SEQUENCE_START;
  for (let i = nextOf(next, text, from); i < to; i = nextOf(next, text, i + 1)) {
    if (text[i] === '"') break;
    if (text[i] === "\\") i++;
    else if (text.startsWith("$${", i) || text.startsWith("%%{", i)) i += 2;
    else if (text.startsWith("${", i) || text.startsWith("%{", i)) {
      const end = sequenceEnd(text, i + 2);
      scanExpression(text, i + 2, end, found);
      i = end;
    }
  }
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_-]*/y;
/** What matters in an expression to {@link scanExpression}: a string, a word, a heredoc or comment. */
const IN_EXPRESSION = /["A-Za-z0-9_<#/]/g;

function isIdentifierStart(c: string | undefined): boolean {
  return c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_");
}

/** The references of the expression text from `from` to `to`. */
function scanExpression(text: string, from: number, to: number, found: Traversal[]): void {
  for (let i = nextOf(IN_EXPRESSION, text, from); i < to; i = nextOf(IN_EXPRESSION, text, i)) {
    const c = text[i];
    if (c === '"') {
      const end = quotedEnd(text, i + 1);
      scanTemplate(text, i + 1, end, true, found);
      i = end + 1;
    } else if (text.startsWith("<<", i)) {
      throw unsupported(text, "a heredoc inside an interpolation");
    } else if (c === "#" || text.startsWith("//", i) || text.startsWith("/*", i)) {
      throw unsupported(text, "a comment inside an interpolation");
    } else if (c === "<" || c === "/") {
      i++;
    } else if (!isIdentifierStart(c)) {
      WORD.lastIndex = i;
      i += WORD.exec(text)![0].length;
    } else {
      const names: string[] = [];
      const ends: number[] = [];
      let j = i;
      for (;;) {
        IDENTIFIER.lastIndex = j;
        const word = IDENTIFIER.exec(text)![0];
        names.push(word);
        j += word.length;
        ends.push(j);
        if (text[j] !== "." || !isIdentifierStart(text[j + 1])) break;
        j++;
      }
      // After a dot the word is an attribute of what came before, not a root.
      if (text[i - 1] !== ".") found.push({ names, start: i, ends });
      i = j;
    }
  }
}
