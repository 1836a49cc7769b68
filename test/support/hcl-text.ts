/**
 * What an operator meets reading a synthesized `.tf` file in Coder's editor, found in its
 * text: quoted strings that hold a whole script on one line, and expressions written out
 * again and again where one local would do (test/core/readable-output.test.ts).
 *
 * A small scanner, not an HCL parser: it knows quoted strings (with `${ … }` inside),
 * heredocs, comments and brackets, which is all it needs to cut function calls, `for`
 * expressions and strings out of the text.
 */

/** A quoted string of `text`, as written (quotes and escapes included), with its line. */
export interface QuotedString {
  readonly line: number;
  readonly text: string;
}

/** One expression text that a file writes more than once. */
export interface RepeatedExpression {
  /** The expression with its whitespace collapsed (line breaks and indentation are layout). */
  readonly expression: string;
  readonly count: number;
}

/** Words before a `(` that make it no function call. */
const KEYWORDS = new Set(["if", "in", "for"]);

const CLOSING: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}" };

class Scanner {
  /** Every quoted string met, in order (strings inside `${ … }` too). */
  readonly strings: { start: number; end: number }[] = [];
  /** Every function call and `for` expression, as [start, end) of the text. */
  readonly expressions: { start: number; end: number }[] = [];

  constructor(readonly text: string) {
    this.scan(0, text.length, undefined);
  }

  /** Scans from `i` to the bracket `close` (or `end`); returns the index after it. */
  private scan(i: number, end: number, close: string | undefined): number {
    const t = this.text;
    while (i < end) {
      const c = t[i];
      if (c === close) return i + 1;
      if (c === "#" || (c === "/" && t[i + 1] === "/")) {
        const eol = t.indexOf("\n", i);
        i = eol < 0 ? end : eol;
      } else if (c === '"') {
        i = this.quoted(i);
      } else if (c === "<" && t.startsWith("<<-EOT\n", i)) {
        const eot = /\n[ \t]*EOT(?=\n|$)/g;
        eot.lastIndex = i;
        const m = eot.exec(t);
        i = m ? m.index + m[0].length : end;
      } else if (c in CLOSING) {
        let start = i;
        while (c === "(" && start > 0 && /[A-Za-z0-9_:]/.test(t[start - 1])) start--;
        // `if(…)` in a for expression is the condition in brackets, not a call.
        const isCall = start < i && !KEYWORDS.has(t.slice(start, i));
        const isFor = c !== "(" && /^[[{]\s*for\s/.test(t.slice(i, i + 8));
        const after = this.scan(i + 1, end, CLOSING[c]);
        if (isCall || isFor) this.expressions.push({ start, end: after });
        i = after;
      } else {
        i++;
      }
    }
    return i;
  }

  /** A quoted string starting at `i`; returns the index after its closing quote. */
  private quoted(i: number): number {
    const t = this.text;
    const start = i;
    i++;
    while (i < t.length && t[i] !== '"' && t[i] !== "\n") {
      if (t[i] === "\\") i += 2;
      else if ((t[i] === "$" || t[i] === "%") && t[i + 1] === "{") {
        if (t[i + 2] === "{" || t[i - 1] === t[i]) i += 2;
        else i = this.scan(i + 2, t.length, "}");
      } else i++;
    }
    this.strings.push({ start, end: i + 1 });
    return i + 1;
  }
}

/** The quoted strings of an HCL file's text, in order. */
export function quotedStrings(text: string): QuotedString[] {
  return new Scanner(text).strings.map(({ start, end }) => ({
    line: text.slice(0, start).split("\n").length,
    text: text.slice(start, end),
  }));
}

/** `expression` with its layout removed: whitespace runs as one space, none inside brackets. */
function collapsed(expression: string): string {
  return expression
    .replace(/\s+/g, " ")
    .replace(/([([{]) /g, "$1")
    .replace(/ ([)\]}])/g, "$1")
    .replace(/,([)\]}])/g, "$1");
}

/**
 * Function calls, `for` expressions and quoted strings of at least `minLength` characters
 * (whitespace collapsed) that `text` writes at least `minCount` times, most repeated first.
 * An expression inside a repeated one is listed too when it repeats on its own.
 */
export function repeatedExpressions(
  text: string,
  minLength: number,
  minCount: number,
): RepeatedExpression[] {
  const scanner = new Scanner(text);
  const counts = new Map<string, number>();
  for (const { start, end } of [...scanner.expressions, ...scanner.strings]) {
    const expression = collapsed(text.slice(start, end));
    if (expression.length >= minLength) counts.set(expression, (counts.get(expression) ?? 0) + 1);
  }
  return [...counts]
    .filter(([, count]) => count >= minCount)
    .map(([expression, count]) => ({ expression, count }))
    .sort((a, b) => b.count - a.count || a.expression.localeCompare(b.expression));
}
