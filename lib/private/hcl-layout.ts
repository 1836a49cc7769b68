/**
 * Lays out one HCL expression as `terraform fmt` would leave it and as a maintained HCL
 * template would be written: tokens spaced by fmt's rules, and an expression too long for
 * {@link LINE_LIMIT} columns broken over lines at its largest bracket (one argument, element
 * or object item per line), its conditionals (`? … : …`) and its `&&`/`||` chains, so that
 * an operator can follow the logic in Coder's editor. Only whitespace changes: the tokens are
 * the same, in the same order (see hcl-template.ts, whose scanner reads them).
 *
 * Line breaks go only where HCL ignores them: inside parentheses, brackets and for
 * expressions. A conditional or a chain that must break elsewhere (an attribute's value, an
 * object item's value) is wrapped in parentheses first.
 */
import { expressionTokens, type ExpressionToken, templateParts } from "./hcl-template";

/** Lines longer than this are broken where the expression allows it. */
export const LINE_LIMIT = 100;
/** Brackets whose content is shorter than this stay on one line. */
const MIN_BREAK = 24;

type Node = ExpressionToken | Group;

interface Group {
  readonly kind: "group";
  readonly open: string;
  readonly close: string;
  readonly body: readonly Node[];
}

/**
 * `expression` laid out for a value that starts at column `column` of a line indented by
 * `indent` (continuation lines are indented from it). Returns the text with its line breaks,
 * or undefined for an expression the scanner does not follow (a heredoc, a comment).
 */
export function layoutExpression(
  expression: string,
  column: number,
  indent: string,
): string | undefined {
  let nodes: Node[];
  try {
    nodes = tree(expressionTokens(expression));
  } catch {
    return undefined;
  }
  return layout(nodes, column, indent, false).join("\n");
}

function tree(tokens: readonly ExpressionToken[]): Node[] {
  const stack: { open: string; body: Node[] }[] = [{ open: "", body: [] }];
  for (const token of tokens) {
    const top = stack[stack.length - 1];
    if (token.kind === "open") {
      stack.push({ open: token.text, body: [] });
    } else if (token.kind === "close") {
      const done = stack.pop()!;
      const body = done.open === "{" ? itemsOfObject(done.body) : withoutTrailingComma(done.body);
      stack[stack.length - 1].body.push({
        kind: "group",
        open: done.open,
        close: token.text,
        body,
      });
    } else {
      top.body.push(token);
    }
  }
  return stack[0].body;
}

/** A trailing comma means nothing in HCL; the layout writes its own separators. */
function withoutTrailingComma(body: Node[]): Node[] {
  const last = body[body.length - 1];
  return last !== undefined && last.kind === "comma" ? body.slice(0, -1) : body;
}

/** Line breaks that separate object items become commas; others (after `{`, `,`) go. */
function itemsOfObject(body: readonly Node[]): Node[] {
  const out: Node[] = [];
  for (const node of body) {
    if (node.kind !== "newline") {
      out.push(node);
      continue;
    }
    const last = out[out.length - 1];
    if (last !== undefined && last.kind !== "comma") out.push({ kind: "comma", text: "," });
  }
  while (out.length > 0 && out[out.length - 1].kind === "comma") out.pop();
  return out;
}

/**
 * A template's `${ … }` or `%{ … }` sequence spaced as fmt spaces it: no space inside the
 * markers (`%{if x}`), the expression's tokens spaced as anywhere else. Sequences with strip
 * markers (`~`), and what the scanner does not follow, are kept as written.
 */
export function formatSequence(sequence: string): string {
  const inner = sequence.slice(2, -1);
  if (inner.trimStart().startsWith("~") || inner.trimEnd().endsWith("~")) return sequence;
  try {
    return `${sequence.slice(0, 2)}${flat(tree(expressionTokens(inner)))}}`;
  } catch {
    return sequence;
  }
}

/** A quoted string of an expression with its template sequences spaced by {@link formatSequence}. */
function formatQuoted(quoted: string): string {
  if (!quoted.includes("{")) return quoted;
  const parts = templateParts(quoted.slice(1, -1));
  return `"${parts.map((p) => (p.kind === "literal" ? p.text : formatSequence(p.text))).join("")}"`;
}

function firstToken(node: Node): ExpressionToken {
  return node.kind === "group" ? { kind: "open", text: node.open } : node;
}

function lastToken(node: Node): ExpressionToken {
  return node.kind === "group" ? { kind: "close", text: node.close } : node;
}

const VALUE_END = new Set(["word", "string", "close"]);

/** Whether `terraform fmt` puts a space between `subject` and `after` (`before` precedes them). */
function spaced(
  before: ExpressionToken | undefined,
  subject: ExpressionToken,
  after: ExpressionToken,
): boolean {
  if (after.kind === "comma" || after.text === "...") return false;
  if (subject.kind === "comma") return true;
  if (subject.text === "." || after.text === ".") return false;
  if (subject.kind === "word" && after.text === "(") return false;
  if (subject.text === "!") return false;
  if (subject.text === "-") {
    // A minus after something that cannot end an operand is a negation.
    return before !== undefined && VALUE_END.has(before.kind);
  }
  if (subject.text === "{" || after.text === "}")
    return !(subject.text === "{" && after.text === "}");
  if (subject.kind === "open" || after.kind === "close") return false;
  // An index: fmt joins `[` to the name or bracket before it (`local.m["k"]`, `f()[0]`), but
  // not to a string or to the `in` of a for expression.
  if (after.text === "[" && (subject.kind === "close" || isIndexable(subject))) return false;
  return true;
}

function isIndexable(token: ExpressionToken): boolean {
  return token.kind === "word" && token.text !== "in";
}

/** The nodes on one line, spaced as fmt spaces them. */
function flat(nodes: readonly Node[]): string {
  let out = "";
  let before: ExpressionToken | undefined;
  let previous: ExpressionToken | undefined;
  for (const node of nodes) {
    if (previous !== undefined && spaced(before, previous, firstToken(node))) out += " ";
    if (node.kind === "group") {
      const body = flatBody(node);
      out += node.open === "{" && body !== "" ? `{ ${body} }` : node.open + body + node.close;
      before = node.body.length > 0 ? lastToken(node.body[node.body.length - 1]) : firstToken(node);
    } else {
      out += node.kind === "string" ? formatQuoted(node.text) : node.text;
      before = previous;
    }
    previous = lastToken(node);
  }
  return out;
}

/**
 * {@link flat} of a group's body, once per group: {@link layout} measures a bracket's content
 * at every level it tries to break, so each token was flattened once per enclosing bracket.
 */
function flatBody(group: Group): string {
  let body = FLAT_BODIES.get(group);
  if (body === undefined) {
    body = flat(group.body);
    FLAT_BODIES.set(group, body);
  }
  return body;
}

const FLAT_BODIES = new WeakMap<Group, string>();

/** Splits nodes at top-level tokens for which `at` holds; the separators are dropped. */
function splitAt(nodes: readonly Node[], at: (t: ExpressionToken) => boolean): Node[][] {
  const parts: Node[][] = [[]];
  for (const node of nodes) {
    if (node.kind !== "group" && at(node)) parts.push([]);
    else parts[parts.length - 1].push(node);
  }
  return parts;
}

/** `cond ? a : b` at the top level: its three parts (the else part may hold more). */
function conditional(nodes: readonly Node[]): [Node[], Node[], Node[]] | undefined {
  const q = nodes.findIndex((n) => n.kind === "op" && n.text === "?");
  if (q < 0) return undefined;
  let depth = 0;
  for (let i = q + 1; i < nodes.length; i++) {
    const n = nodes[i];
    if (n.kind === "op" && n.text === "?") depth++;
    if (n.kind === "op" && n.text === ":") {
      if (depth === 0) return [nodes.slice(0, q), nodes.slice(q + 1, i), nodes.slice(i + 1)];
      depth--;
    }
  }
  return undefined;
}

/**
 * Lines for `nodes` starting at `column`; continuation lines carry their indentation.
 * `free`: line breaks between tokens are ignored here (inside parentheses or brackets).
 */
function layout(nodes: readonly Node[], column: number, indent: string, free: boolean): string[] {
  const one = flat(nodes);
  if (column + one.length <= LINE_LIMIT) return [one];
  const inner = indent + "  ";

  const cond = conditional(nodes);
  const chain = ["||", "&&"]
    .map((op) => ({ op, parts: splitAt(nodes, (t) => t.kind === "op" && t.text === op) }))
    .find((c) => c.parts.length > 1);
  if (cond !== undefined || chain !== undefined) {
    if (!free)
      return ["(", ...indented(layout(nodes, inner.length, inner, true), inner), `${indent})`];
    if (cond !== undefined) {
      const [test, yes, no] = cond;
      return [
        ...layout(test, column, indent, true),
        ...prefixed("? ", yes, indent),
        ...prefixed(": ", no, indent),
      ];
    }
    const [first, ...rest] = chain!.parts;
    return [
      ...layout(first, column, indent, true),
      ...rest.flatMap((part) => prefixed(`${chain!.op} `, part, indent)),
    ];
  }

  // Break the largest bracket that is not an index (`x[...]`).
  let best = -1;
  let bestLength = MIN_BREAK - 1;
  nodes.forEach((node, i) => {
    if (node.kind !== "group" || node.body.length === 0) return;
    const previous = i > 0 ? lastToken(nodes[i - 1]) : undefined;
    if (
      node.open === "[" &&
      previous !== undefined &&
      (previous.kind === "close" || isIndexable(previous))
    )
      return;
    const length = flatBody(node).length;
    if (length > bestLength) {
      best = i;
      bestLength = length;
    }
  });
  if (best < 0) return [one];
  const group = nodes[best] as Group;
  const head = flat([...nodes.slice(0, best), { ...group, body: [] }]).slice(0, -1);
  const tail = flat([{ ...group, body: [] }, ...nodes.slice(best + 1)]).slice(1);
  const isCall = best > 0 && lastToken(nodes[best - 1]).kind === "word";
  const body = brokenBody(group, inner, isCall);
  return [head, ...body, `${indent}${tail}`];
}

/** The lines between a broken group's brackets, indented by `inner`. */
function brokenBody(group: Group, inner: string, isCall: boolean): string[] {
  const first = group.body[0];
  if (first.kind === "word" && first.text === "for") return brokenFor(group, inner);
  // A trailing comma leaves an empty last item.
  const items = splitAt(group.body, (t) => t.kind === "comma").filter((item) => item.length > 0);
  if (group.open === "{") return objectItems(items, inner);
  // A grouping parenthesis holds one expression and takes no comma.
  const comma = group.open === "[" || isCall ? "," : "";
  return items.flatMap((item, i) => {
    const lines = layout(item, inner.length, inner, true);
    return withLastSuffix(indented(lines, inner), i < items.length - 1 ? comma : "");
  });
}

/** `for x in coll : body` (the collection and the body may break), then `if cond` on its own line. */
function brokenFor(group: Group, inner: string): string[] {
  const nodes = group.body;
  const colon = nodes.findIndex((n) => n.kind === "op" && n.text === ":");
  const inAt = nodes.findIndex((n, i) => i < colon && n.kind === "word" && n.text === "in");
  const ifAt = nodes.findIndex(
    (n, i) =>
      i > colon && n.kind === "word" && n.text === "if" && lastToken(nodes[i - 1]).text !== ".",
  );
  const space = spaced(undefined, nodes[inAt] as ExpressionToken, firstToken(nodes[inAt + 1]));
  const head = `${inner}${flat(nodes.slice(0, inAt + 1))}${space ? " " : ""}`;
  const collection = layout(nodes.slice(inAt + 1, colon), head.length, inner, true);
  const lines = joined([head], "", collection);
  const bodyNodes = nodes.slice(colon + 1, ifAt < 0 ? undefined : ifAt);
  const body = layout(bodyNodes, lines[lines.length - 1].length + 3, inner, true);
  // A line that closes the collection and opens the body would leave fmt's indentation
  // (one level per line with more openers than closers) a level off: the body then starts
  // its own line.
  const out =
    lines.length > 1 && body.length > 1
      ? [
          ...joined(lines, " :", [""]),
          ...indented(layout(bodyNodes, inner.length, inner, true), inner),
        ]
      : joined(lines, " : ", body);
  if (ifAt >= 0) out.push(...indented(layout(nodes.slice(ifAt), inner.length, inner, true), inner));
  return out;
}

/** `a`'s lines with `b`'s first line appended to its last (after `separator`). */
function joined(a: readonly string[], separator: string, b: readonly string[]): string[] {
  return [...a.slice(0, -1), `${a[a.length - 1]}${separator}${b[0]}`, ...b.slice(1)];
}

/** Object items one per line, `=` aligned across consecutive one-line items, as fmt aligns. */
function objectItems(items: readonly Node[][], inner: string): string[] {
  const rendered = items.map((item) => {
    const eq = item.findIndex((n) => n.kind === "op" && (n.text === "=" || n.text === ":"));
    if (eq < 0)
      return { key: "", lines: indented(layout(item, inner.length, inner, false), inner) };
    const key = flat(item.slice(0, eq));
    const op = (item[eq] as ExpressionToken).text;
    const value = layout(item.slice(eq + 1), inner.length + key.length + 3, inner, false);
    return { key, op, value };
  });
  const out: string[] = [];
  let run: { key: string; op: string; text: string }[] = [];
  const flush = () => {
    const width = Math.max(0, ...run.map((r) => r.key.length));
    out.push(...run.map((r) => `${inner}${r.key.padEnd(width)} ${r.op} ${r.text}`));
    run = [];
  };
  for (const r of rendered) {
    if ("lines" in r) {
      flush();
      out.push(...r.lines!);
    } else if (r.value.length === 1) {
      run.push({ key: r.key, op: r.op!, text: r.value[0] });
    } else {
      flush();
      out.push(`${inner}${r.key} ${r.op} ${r.value[0]}`, ...r.value.slice(1));
    }
  }
  flush();
  return out;
}

/** `prefix` then the nodes' lines (on a line of their own, indented by `indent`). */
function prefixed(prefix: string, nodes: readonly Node[], indent: string): string[] {
  const lines = layout(nodes, indent.length + prefix.length, indent, true);
  return indented(joined([prefix], "", lines), indent);
}

/** The first line gets `indent`; later lines already carry theirs. */
function indented(lines: readonly string[], indent: string): string[] {
  return lines.map((line, i) => (i === 0 ? `${indent}${line}` : line));
}

function withLastSuffix(lines: readonly string[], suffix: string): string[] {
  return lines.map((line, i) => (i === lines.length - 1 ? `${line}${suffix}` : line));
}
