/**
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
  for (let i = start; i < text.length; i++) {
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

/** Index of the `"` that closes a quoted string whose text starts at `start`. */
function quotedEnd(text: string, start: number): number {
  for (let i = start; i < text.length; i++) {
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
