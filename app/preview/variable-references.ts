/**
 * `${…}` references in a devcontainer.json, as devcontainer-builder reports them
 * (`variables`) and as its rendered scripts spell them (shell variables the workspace
 * sets before anything runs). The service does not substitute them at build time.
 */

/** One referenced variable, in the data source's shape. */
export interface VariableReference {
  readonly kind: "localEnv" | "containerEnv" | "context";
  readonly name: string;
  /** The `${localEnv:NAME:default}` default; null when none. */
  readonly default: string | null;
  /** Where it is used: property paths such as `postCreateCommand` or `mounts[0]`. */
  readonly used_in: readonly string[];
}

const REFERENCE = /\$\{([A-Za-z]+)(?::([^:}]*))?(?::([^}]*))?\}/g;

/** Context variables and the workspace's shell variable for each. */
const CONTEXT: Record<string, string> = {
  containerWorkspaceFolder: "DEVCONTAINER_WORKSPACE_FOLDER",
  localWorkspaceFolder: "DEVCONTAINER_WORKSPACE_FOLDER",
  containerWorkspaceFolderBasename: "DEVCONTAINER_WORKSPACE_FOLDER_BASENAME",
  localWorkspaceFolderBasename: "DEVCONTAINER_WORKSPACE_FOLDER_BASENAME",
  devcontainerId: "DEVCONTAINER_ID",
};

/**
 * The shell expansion for one reference, or undefined when it is not a known form. The Dev
 * Containers CLI puts a default in as literal text, so its `\ " $ \`` are escaped: the same
 * backslashes keep it literal inside `"…"` and unquoted in dash, bash and BusyBox sh. A name
 * that is no shell variable name (`${localEnv:A-B}`) can never be set in the workspace: it
 * becomes its default as text (or nothing), never a `${…}` the shell refuses.
 */
function shellExpansion(kind: string, name?: string, fallback?: string): string | undefined {
  const literal = fallback === undefined ? "" : escapeForDoubleQuotes(fallback);
  const withDefault = (variable: string) =>
    fallback === undefined ? `\${${variable}}` : `\${${variable}:-${literal}}`;
  const variableKind = kind === "localEnv" || kind === "env" || kind === "containerEnv";
  if (variableKind && name && !isReferenceName(name)) return literal;
  if ((kind === "localEnv" || kind === "env") && name) {
    return withDefault(`DEVCONTAINER_LOCALENV_${name}`);
  }
  if (kind === "containerEnv" && name) return withDefault(name);
  if (name === undefined && CONTEXT[kind] !== undefined) return `\${${CONTEXT[kind]}}`;
  return undefined;
}

/** Whether a `${localEnv:NAME}` or `${containerEnv:NAME}` name can be a shell variable's. */
export function isReferenceName(name: string): boolean {
  return /^\w+$/.test(name);
}

/** `text` with the characters that stay special inside `"…"` escaped. */
function escapeForDoubleQuotes(text: string): string {
  return text.replace(/[\\"`$]/g, (c) => `\\${c}`);
}

/** Every reference in `config`'s strings, merged by kind and name, in order of first use. */
export function findVariableReferences(config: Record<string, unknown>): VariableReference[] {
  // Each variable's places in a Set (in order of first use): a list searched for every use
  // made a variable used n times cost n².
  const found = new Map<string, { ref: Omit<VariableReference, "used_in">; used: Set<string> }>();
  const visit = (value: unknown, path: string) => {
    if (typeof value === "string") {
      for (const m of value.matchAll(REFERENCE)) {
        const [, rawKind, name, fallback] = m;
        const kind = rawKind === "env" ? "localEnv" : rawKind;
        let ref: Omit<VariableReference, "used_in"> | undefined;
        if ((kind === "localEnv" || kind === "containerEnv") && name) {
          ref = { kind, name, default: fallback ?? null };
        } else if (name === undefined && CONTEXT[kind] !== undefined) {
          ref = { kind: "context", name: kind, default: null };
        }
        if (ref === undefined) continue;
        const key = `${ref.kind}:${ref.name}`;
        const entry = found.get(key) ?? { ref, used: new Set<string>() };
        entry.used.add(path);
        found.set(key, entry);
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, `${path}[${i}]`));
    } else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value)) visit(item, path ? `${path}.${key}` : key);
    }
  };
  visit(config, "");
  return [...found.values()].map(({ ref, used }) => ({ ...ref, used_in: [...used] }));
}

/** `text` with every known reference replaced by its shell expansion (for use inside `"…"`). */
export function withShellReferences(text: string): string {
  return text.replace(REFERENCE, (whole, kind: string, name?: string, fallback?: string) => {
    return shellExpansion(kind, name, fallback) ?? whole;
  });
}

/** The inside of a `"…"` shell string for `text`: literal text escaped, references expandable. */
export function doubleQuotedBody(text: string): string {
  let body = "";
  let last = 0;
  for (const m of text.matchAll(REFERENCE)) {
    const expansion = shellExpansion(m[1], m[2], m[3]);
    if (expansion === undefined) continue;
    body += escapeForDoubleQuotes(text.slice(last, m.index)) + expansion;
    last = (m.index ?? 0) + m[0].length;
  }
  return body + escapeForDoubleQuotes(text.slice(last));
}

/** One shell word for `text`: single-quoted, with references left expandable. */
export function shellWord(text: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(REFERENCE)) {
    const expansion = shellExpansion(m[1], m[2], m[3]);
    if (expansion === undefined) continue;
    parts.push(singleQuoted(text.slice(last, m.index)), `"${expansion}"`);
    last = (m.index ?? 0) + m[0].length;
  }
  parts.push(singleQuoted(text.slice(last)));
  const word = parts.filter((p) => p !== "''").join("");
  return word === "" ? "''" : word;
}

/** `'text'` with `'` escaped for POSIX sh. */
export function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
