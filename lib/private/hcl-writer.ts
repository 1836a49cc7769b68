/**
 * Writes HCL native syntax (the `.tf` format) from plain values, laid out the way
 * `terraform fmt` lays it out, for the few things Coder only reads from `.tf` files.
 *
 * Strings come in two kinds:
 * - a *literal* (text from TypeScript or an operator): `${` and `%{` are escaped so it
 *   can never interpolate;
 * - a *template* (a string taken from Terraform JSON, where every string is already a
 *   template): its `${ … }` / `%{ … }` sequences are HCL expressions and are copied as they
 *   are; its literal text keeps `$${` / `%%{`, which mean the same in both syntaxes.
 * Literal text gets quotes, backslashes and control characters escaped.
 */
import { formatSequence, layoutExpression, LINE_LIMIT } from "./hcl-layout";
import { soleInterpolation, templateParts } from "./hcl-template";

/** A raw HCL expression (a reference such as `var.region`), written without quotes. */
export class HclReference {
  constructor(public readonly expression: string) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/.test(expression)) {
      throw new Error(`not a plain HCL reference: ${JSON.stringify(expression)}`);
    }
  }
}

/**
 * Any HCL expression, laid out by hcl-layout.ts: spaced as terraform fmt spaces it, and broken
 * over lines where it is too long (only whitespace changes).
 */
export class HclExpressionText {
  constructor(public readonly expression: string) {}
}

/** Values the writer knows; objects are HCL object expressions with quoted keys (strings of the same kind). */
export type HclWriterValue =
  | string
  | number
  | boolean
  | null
  | HclReference
  | HclExpressionText
  | readonly HclWriterValue[]
  | { readonly [key: string]: HclWriterValue };

/** How plain strings are written. */
export type HclStringKind = "literal" | "template";

/** An HCL quoted string for `text`. */
export function hclQuoted(text: string, kind: HclStringKind): string {
  if (kind === "template") {
    const parts = templateParts(text);
    const written = parts.map((p) =>
      p.kind === "literal" ? escapeText(p.text) : formatSequence(p.text),
    );
    return `"${written.join("")}"`;
  }
  return `"${escapeText(literalAsTemplate(text))}"`;
}

/**
 * A literal `text` (an operator's description, a variable's default) as a template string
 * that means exactly `text`: its `${` and `%{` escaped, so that a file written with the
 * "template" kind can hold literals too.
 */
export function literalAsTemplate(text: string): string {
  // Replacement functions: "$$" in a replacement string would mean "$".
  return text.replace(/\$\{/g, () => "$${").replace(/%\{/g, () => "%%{");
}

/**
 * `text` as a flush heredoc (`<<-EOT`) whose lines are indented under `indent`, or undefined
 * when a heredoc cannot give back exactly its bytes; then it stays a quoted string. Operators
 * read scripts in Coder's editor: one line per script line, not `\n` escapes.
 *
 * Terraform takes back from every line the smallest indentation of the lines that are not
 * blank, and ends the text with the newline before `EOT`. So the heredoc is used only when
 * some line of `text` starts without whitespace, no line is whitespace alone (Terraform
 * would keep that one's indentation) or starts with a character that joins the indentation
 * (a combining mark: Terraform counts characters as it displays them), the literal text has
 * no control character but the line breaks, and the text ends with a line break or a
 * `${ … }` sequence, given a `~` that strips the heredoc's last newline. Sequences that
 * span lines or strip whitespace themselves are left quoted.
 */
export function hclHeredoc(text: string, kind: HclStringKind, indent: string): string | undefined {
  if (!text.includes("\n")) return undefined;
  const parts =
    kind === "template"
      ? templateParts(text)
      : [{ kind: "literal" as const, text: literalAsTemplate(text) }];
  const written: string[] = [];
  for (const part of parts) {
    if (part.kind === "literal") {
      // eslint-disable-next-line no-control-regex -- control characters have no heredoc form
      if (/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(part.text)) return undefined;
      written.push(part.text);
    } else {
      if (part.text.includes("\n") || part.text.includes("~")) return undefined;
      written.push(formatSequence(part.text));
    }
  }
  let body = written.join("");
  const last = parts[parts.length - 1];
  if (last.kind === "literal" && last.text.endsWith("\n")) body = body.slice(0, -1);
  else if (last.kind === "sequence" && last.text.startsWith("${")) body = body.slice(0, -1) + "~}";
  else return undefined;
  const lines = body.split("\n");
  if (lines.some((l) => /^\s+$/.test(l) || /^[\p{M}\p{Cf}\u{1f3fb}-\u{1f3ff}]/u.test(l))) {
    return undefined;
  }
  if (!lines.some((l) => l !== "" && !/^\s/.test(l))) return undefined;
  if (lines.some((l) => l.trim() === "EOT")) return undefined;
  const inner = indent + "  ";
  return `<<-EOT\n${lines.map((l) => (l === "" ? "" : inner + l)).join("\n")}\n${indent}EOT`;
}

/** Quotes, backslashes and control characters escaped for an HCL quoted string. */
function escapeText(text: string): string {
  return text.replace(TO_ESCAPE, escapeChar);
}

/** What {@link escapeText} escapes; everything else (any other code point) is written as it is. */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const TO_ESCAPE = /[\\"\u0000-\u001f\u007f]/g;

function escapeChar(ch: string): string {
  switch (ch) {
    case "\\":
      return "\\\\";
    case '"':
      return '\\"';
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    default:
      return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
  }
}

/** One `name = value` line or nested block of a block body, in the order given. */
export type HclBodyItem =
  | {
      readonly kind: "attribute";
      readonly name: string;
      readonly value: HclWriterValue;
      /** `#` comment lines written above the attribute (wrapped at the line limit). @default none */
      readonly comment?: string;
    }
  | { readonly kind: "block"; readonly block: HclBlock };

/** `type "label" … { body }` */
export interface HclBlock {
  readonly type: string;
  readonly labels: readonly string[];
  readonly body: readonly HclBodyItem[];
  /** A `#` comment line written above the block (top-level blocks). @default none */
  readonly comment?: string;
}

/** Renders top-level blocks separated by blank lines, ending with a newline. */
export function renderHclFile(blocks: readonly HclBlock[], kind: HclStringKind): string {
  return (
    blocks
      .map((b) => {
        const comment = b.comment === undefined ? "" : `# ${b.comment.replace(/\s+/g, " ")}\n`;
        return comment + renderBlock(b, "", kind);
      })
      .join("\n\n") + "\n"
  );
}

function renderBlock(block: HclBlock, indent: string, kind: HclStringKind): string {
  const head = [block.type, ...block.labels.map((l) => hclQuoted(l, "literal"))].join(" ");
  if (block.body.length === 0) return `${indent}${head} {}`;
  return `${indent}${head} {\n${renderBody(block.body, indent + "  ", kind)}\n${indent}}`;
}

/**
 * Consecutive attributes form one alignment group (their `=` line up, as terraform fmt
 * does); a nested block ends the group and is set off by blank lines.
 */
function renderBody(items: readonly HclBodyItem[], indent: string, kind: HclStringKind): string {
  const lines: string[] = [];
  let group: AlignedEntry[] = [];
  const flush = () => {
    lines.push(...alignedLines(group, indent));
    group = [];
  };
  items.forEach((item, index) => {
    if (item.kind === "attribute") {
      if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(item.name)) {
        throw new Error(`not a valid HCL attribute name: ${JSON.stringify(item.name)}`);
      }
      group.push({
        name: item.name,
        text: renderValue(item.value, indent, kind, indent.length + item.name.length + 3, true),
        comment: item.comment,
      });
      return;
    }
    flush();
    if (index > 0 && lines[lines.length - 1] !== "") lines.push("");
    lines.push(renderBlock(item.block, indent, kind));
    if (index < items.length - 1) lines.push("");
  });
  flush();
  return lines.join("\n");
}

/**
 * `name = value` lines with the `=` of consecutive one-line values aligned, as terraform fmt
 * aligns them; a value that spans lines stands alone and ends the group.
 */
function alignedLines(entries: readonly AlignedEntry[], indent: string): string[] {
  const lines: string[] = [];
  let run: AlignedEntry[] = [];
  const flush = () => {
    const width = Math.max(0, ...run.map((e) => e.name.length));
    lines.push(...run.map((e) => `${indent}${e.name.padEnd(width)} = ${e.text}`));
    run = [];
  };
  for (const entry of entries) {
    // A comment line ends an alignment group, as in terraform fmt.
    if (entry.comment !== undefined) {
      flush();
      lines.push(...commentLines(entry.comment, indent));
    }
    // terraform fmt aligns a heredoc's opening line with its neighbours, as a one-line value.
    if (entry.text.includes("\n") && !entry.text.startsWith("<<-")) {
      flush();
      lines.push(`${indent}${entry.name} = ${entry.text}`);
    } else {
      run.push(entry);
    }
  }
  flush();
  return lines;
}

/** One `name = value` of a body or object, with its optional comment. */
interface AlignedEntry {
  readonly name: string;
  readonly text: string;
  readonly comment?: string;
}

/** `comment` as `# …` lines under `indent`, words wrapped at the line limit. */
function commentLines(comment: string, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of comment.split(/\s+/).filter(Boolean)) {
    if (line !== "" && indent.length + 2 + line.length + 1 + word.length > LINE_LIMIT) {
      lines.push(`${indent}# ${line}`);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(`${indent}# ${line}`);
  return lines;
}

/**
 * `column`: where the value starts on its line, for the layout of long expressions;
 * `heredoc`: the value is a whole attribute's (a list element stays quoted).
 */
function renderValue(
  value: HclWriterValue,
  indent: string,
  kind: HclStringKind,
  column = indent.length,
  heredoc = false,
): string {
  if (value === null) return "null";
  if (value instanceof HclReference) return value.expression;
  if (value instanceof HclExpressionText) {
    const laidOut = layoutExpression(value.expression, column, indent);
    if (laidOut !== undefined) return laidOut;
    const lines = value.expression.split("\n");
    if (lines.length === 1) return value.expression;
    // What the scanner does not follow is kept as written, inside parentheses, where HCL
    // allows line breaks; continuation lines take the value's indentation.
    return `(\n${lines.map((l) => `${indent}  ${l.trim()}`).join("\n")}\n${indent})`;
  }
  if (typeof value === "string") {
    return (heredoc ? hclHeredoc(value, kind, indent) : undefined) ?? hclQuoted(value, kind);
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${value} cannot be written as an HCL number`);
    return String(value);
  }
  if (typeof value === "boolean") return value ? "true" : "false";
  if (isList(value)) {
    const one = `[${value.map((v) => renderValue(v, indent, kind)).join(", ")}]`;
    if (value.length < 2 || (column + one.length <= LINE_LIMIT && !one.includes("\n"))) return one;
    // Too long for one line: one element per line, as hcl-layout.ts breaks a tuple.
    const inner = indent + "  ";
    // The last element may be a heredoc (a container's script after "bash", "-c"): with no
    // comma to follow its closing marker, it reads as the other heredocs do.
    const items = value.map((v, i) => {
      const text = renderValue(v, inner, kind, inner.length, i === value.length - 1);
      return text.startsWith("<<-") ? `${inner}${text}` : `${inner}${text},`;
    });
    return `[\n${items.join("\n")}\n${indent}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return "{}";
  const inner = indent + "  ";
  const lines = alignedLines(
    keys.map((k) => {
      const name = hclQuoted(k, kind);
      return {
        name,
        text: renderValue(value[k], inner, kind, inner.length + name.length + 3, true),
      };
    }),
    inner,
  );
  return `{\n${lines.join("\n")}\n${indent}}`;
}

function isList(value: HclWriterValue): value is readonly HclWriterValue[] {
  return Array.isArray(value);
}

/**
 * The HCL value of a Terraform JSON expression value: a string that is one interpolation
 * becomes its expression, any other string stays a template (write it with the "template"
 * kind), objects and lists keep their shape. `where` names the value in errors.
 */
export function hclValueOf(value: unknown, where: string): HclWriterValue {
  if (typeof value === "string") {
    const expression = soleInterpolation(value);
    return expression === undefined ? value : new HclExpressionText(expression);
  }
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map((v, i) => hclValueOf(v, `${where}[${i}]`));
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        hclValueOf(v, `${where}.${k}`),
      ]),
    );
  }
  throw new Error(`${where}: ${typeof value} cannot be written in HCL`);
}
