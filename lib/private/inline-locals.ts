/**
 * Folds the locals that carry no decision of their own into the locals that read them, so a
 * template ships fewer locals with the same values.
 *
 * Terraform pays for each local value at every plan and apply: it is a node of the graph,
 * walked, evaluated and checked on its own (docs/performance.md). A construct names each
 * step of its logic because that is how it is written and tested; some steps are read once,
 * by one other local, and some are a plain accessor (`try(local.dc.runtime, null)`). Those
 * are written into their reader instead, parenthesised, and locals.tf keeps the values that
 * something reads twice or that a resource, a check or an output reads.
 *
 * A local is inlined only when it is read by locals alone and either once (one reader, one
 * reference, outside the body of a `for` expression, which runs once per element: no
 * expression is evaluated twice or written twice) or is a short accessor, which is repeated
 * (a longer expression written three times fails the project's rule that it is one local,
 * test/core/readable-output.test.ts). It survives when anything but a local
 * mentions `local.<name>` (a resource, data source, module, output, check, provider or
 * variable validation, even in literal text), when its value is a list or an object (its JSON
 * form has no one expression), or when nothing reads it (dead code to
 * remove at its source, not to hide here). References are found with the project's template
 * scanner (hcl-template.ts): only inside `${ … }` / `%{ … }` sequences, so literal text
 * (scripts, `$${local.x}`) keeps its bytes.
 */
import {
  closingBracket,
  quotedStringEnd,
  rewriteTraversals,
  soleInterpolation,
  templateParts,
  templateTraversals,
  topLevelIndexOf,
} from "./hcl-template";

type Json = Record<string, unknown>;

/**
 * An accessor inlined wherever it is read: a reference, maybe in `try(…, null)`, shorter
 * than the 40 characters from which a repeated expression must be a local.
 */
const ACCESSOR =
  /^(?:try\()?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[(?:"[^"\\]*"|\d+)\])*(?:, null\))?$/;

/**
 * `config` (Terraform JSON, locals flat) with every local that {@link inlinable} allows
 * written into its readers and removed; the rest of the configuration is the same object.
 */
export function inlineLocals(config: Json): Json {
  const source = config.locals;
  if (source === null || typeof source !== "object" || Array.isArray(source)) return config;
  const locals = new Map(Object.entries(source as Json));
  if (locals.size === 0) return config;
  const outside = mentionedOutside(config, new Set(locals.keys()));
  const readers = readersOf(locals);
  const reads = new Map([...locals.keys()].map((n) => [n, new Map<string, number>()]));
  for (const [read, by] of readers) for (const [reader, n] of by) reads.get(reader)!.set(read, n);
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, value] of locals) {
      if (readers.get(name)!.size === 0 || outside.has(name)) continue;
      const expression = expressionOf(value);
      const copies = [...readers.get(name)!.values()].reduce((a, b) => a + b, 0);
      if (expression === undefined || !inlinable(expression, copies)) continue;
      // Each reader now reads what `name` read, as many times over as it read `name`.
      for (const [reader, times] of readers.get(name)!) {
        locals.set(reader, substitute(locals.get(reader), name, expression));
        const readerReads = reads.get(reader)!;
        readerReads.delete(name);
        for (const [read, n] of reads.get(name)!) {
          readerReads.set(read, (readerReads.get(read) ?? 0) + n * times);
          readers.get(read)!.set(reader, (readers.get(read)!.get(reader) ?? 0) + n * times);
        }
      }
      for (const read of reads.get(name)!.keys()) readers.get(read)!.delete(name);
      locals.delete(name);
      changed = true;
    }
  }
  return { ...config, locals: Object.fromEntries(locals) };
}

/** Whether a local read `times` by locals, and by nothing else, is written into them. */
function inlinable(expression: string, times: number): boolean {
  return times === 1 || (expression.length < 40 && ACCESSOR.test(expression));
}

/** A local's value as one HCL expression; undefined for lists and objects. */
function expressionOf(value: unknown): string | undefined {
  if (value === null || typeof value === "number" || typeof value === "boolean") {
    return JSON.stringify(value);
  }
  if (typeof value !== "string") return undefined;
  const sole = soleInterpolation(value);
  if (sole !== undefined) return sole;
  const written = templateParts(value).map((p) =>
    p.kind === "literal" ? quotedText(p.text) : p.text,
  );
  return `"${written.join("")}"`;
}

/** Literal template text as the inside of an HCL quoted string (its `$${` escapes kept). */
function quotedText(text: string): string {
  return JSON.stringify(text).slice(1, -1).replace(/\\b/g, "\\u0008").replace(/\\f/g, "\\u000c");
}

/** `value` with each `local.<name>` read as `expression` (parenthesised unless it is one term). */
function substitute(value: unknown, name: string, expression: string): unknown {
  const text = isOneTerm(expression) ? expression : `(${expression})`;
  const rewrite = (v: unknown): unknown => {
    if (typeof v === "string") {
      return rewriteTraversals(v, (t) =>
        t.names[0] === "local" && t.names[1] === name ? { text, count: 2 } : undefined,
      );
    }
    if (Array.isArray(v)) return v.map(rewrite);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(
        Object.entries(v as Json).map(([k, x]) => [rewrite(k) as string, rewrite(x)]),
      );
    }
    return v;
  };
  return rewrite(value);
}

/** Whether `expression` is a reference, a literal or one function call or bracket, whole. */
function isOneTerm(expression: string): boolean {
  if (/^[A-Za-z_][\w.-]*$/.test(expression) || /^-?[0-9.]+$/.test(expression)) return true;
  const open = /^[A-Za-z_][\w]*\(|^[([{]/.exec(expression);
  if (open !== null)
    return closingBracket(expression, open[0].length - 1) === expression.length - 1;
  return expression.startsWith('"') && quotedStringEnd(expression, 0) === expression.length - 1;
}

/**
 * For each local, the locals that read it and how many times each evaluates it: a reference
 * in a `for` expression's body counts twice, since it runs once per element (written into
 * the body, a step over a 1,000-entry list would run 1,000 times instead of once).
 */
function readersOf(locals: ReadonlyMap<string, unknown>): Map<string, Map<string, number>> {
  const readers = new Map([...locals.keys()].map((n) => [n, new Map<string, number>()]));
  for (const [reader, value] of locals) {
    for (const text of strings(value)) {
      const bodies = forBodies(text);
      for (const t of templateTraversals(text)) {
        const read = t.names[0] === "local" ? readers.get(t.names[1] ?? "") : undefined;
        const times = bodies.some(([from, to]) => t.start > from && t.start < to) ? 2 : 1;
        read?.set(reader, (read.get(reader) ?? 0) + times);
      }
    }
  }
  return readers;
}

/**
 * Where the bodies of the `for` expressions in `text` lie: from the `:` after `for … in
 * collection` to the closing bracket (the collection is evaluated once; one with an
 * unbracketed conditional ends at its `?`'s `:`, a wider body, never a narrower one), and
 * from a template's `%{ for }` directive to the end of the text (its body runs up to its
 * `%{ endfor }`: never narrower either).
 */
function forBodies(text: string): [number, number][] {
  const bodies: [number, number][] = [...text.matchAll(/%\{~?\s*for\s/g)].map((m) => [
    m.index,
    text.length,
  ]);
  for (const m of text.matchAll(/[[{]\s*for\s/g)) {
    const close = closingBracket(text, m.index);
    const colon = topLevelIndexOf(text, ":", m.index + m[0].length, close);
    if (colon >= 0) bodies.push([colon, close]);
  }
  return bodies;
}

/** The locals of `names` that some text outside the `locals` section mentions. */
function mentionedOutside(config: Json, names: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  for (const [section, body] of Object.entries(config)) {
    if (section === "locals") continue;
    for (const text of strings(body)) {
      for (const m of text.matchAll(/\blocal\.([A-Za-z_][\w-]*)/g)) {
        if (names.has(m[1])) found.add(m[1]);
      }
    }
  }
  return found;
}

/** Every string of a JSON value, object keys included. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") {
    return Object.entries(value as Json).flatMap(([k, v]) => [k, ...strings(v)]);
  }
  return [];
}
