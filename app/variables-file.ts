/**
 * The operator's `--variables-file` (YAML, as `coder templates push --variables-file` reads it),
 * checked like the configuration before anything runs: an unknown name is refused with the
 * closest variable's name, a value must fit its variable's type, and a required variable
 * (no default) that neither the file nor the configuration sets is named. Every problem is
 * `file:line:column: name: reason`. Values are never shown in messages: the file is where
 * secrets go.
 *
 * Coder reads the file as a map of text values (codersdk ParseUserVariableValues: YAML into
 * map[string]string) and Terraform converts each to its variable's type, so a list or map
 * must be written as JSON text (`extra: '["a", "b"]'`), and a YAML list is refused here
 * rather than by the CLI after the upload.
 */
import { isMap, isScalar, LineCounter, parseDocument, type Node as YamlNode } from "yaml";
import { didYouMean } from "./closest-name";

/** A template variable as synthesized (synth's model `variable.<name>`, written to main.tf). */
export interface SynthesizedVariable {
  readonly type?: string;
  readonly default?: unknown;
  readonly sensitive?: boolean;
}

/** A --variables-file that cannot be pushed. */
export class VariablesFileError extends Error {}

export interface VariablesFileCheck {
  /** The names the file sets, in file order. */
  readonly names: readonly string[];
  /** Each name's value as YAML reads it (text, number or bool), for rules across variables. */
  readonly values: Readonly<Record<string, unknown>>;
}

/**
 * Checks the file's text against the template's variables. `configured` are the names the
 * operator's configuration sets (they count as values for required variables).
 */
export function checkVariablesFile(
  file: string,
  text: string,
  variables: Readonly<Record<string, SynthesizedVariable>>,
  configured: readonly string[] = [],
): VariablesFileCheck {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const at = (offset: number | undefined) => {
    const { line, col } = lines.linePos(offset ?? 0);
    return `${file}:${line}:${col}`;
  };
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    throw new VariablesFileError(
      `${at(error.pos[0])}: not valid YAML (${error.message.split("\n")[0]})`,
    );
  }
  const names: string[] = [];
  const values: Record<string, unknown> = {};
  const contents = doc.contents;
  if (contents !== null && !(isScalar(contents) && contents.value === null)) {
    if (!isMap(contents)) {
      throw new VariablesFileError(
        `${at(contents.range?.[0])}: must be a YAML map of variable names to values`,
      );
    }
    const known = Object.keys(variables);
    for (const pair of contents.items) {
      const keyNode = pair.key as YamlNode | null;
      const name = isScalar(keyNode) ? String(keyNode.value) : "";
      const where = at(keyNode?.range?.[0]);
      if (!isScalar(keyNode) || typeof keyNode.value !== "string") {
        throw new VariablesFileError(`${where}: a variable name must be a plain string`);
      }
      const variable = Object.prototype.hasOwnProperty.call(variables, name)
        ? variables[name]
        : undefined;
      if (variable === undefined) {
        throw new VariablesFileError(
          `${where}: ${name}: unknown variable${didYouMean(name, known)}; the template has: ${known.join(", ")}`,
        );
      }
      const problem = valueProblem(pair.value as YamlNode | null, variable.type);
      if (problem !== undefined) {
        // An empty value is blamed on its name; any other on the value.
        const valueNode = pair.value as YamlNode | null;
        const empty = valueNode === null || (isScalar(valueNode) && valueNode.value === null);
        throw new VariablesFileError(
          `${!empty && valueNode.range ? at(valueNode.range[0]) : where}: ${name}: ${problem}`,
        );
      }
      names.push(name);
      values[name] = (pair.value as { value?: unknown }).value;
    }
  }
  const missing = Object.entries(variables)
    .filter(([name, v]) => !("default" in v) && !names.includes(name) && !configured.includes(name))
    .map(([name]) => name);
  if (missing.length > 0) {
    throw new VariablesFileError(
      `${file}: required variable${missing.length > 1 ? "s" : ""} without a value: ${missing.join(", ")}. ` +
        `Set ${missing.length > 1 ? "them" : "it"} in this file, or (when not secret) under ` +
        `templates.<id>.variables in coder-cdktf.jsonc.`,
    );
  }
  return { names, values };
}

/**
 * The required variables (no default) that the configuration does not set, for a push
 * without a variables file.
 */
export function requiredWithoutValue(
  variables: Readonly<Record<string, SynthesizedVariable>>,
  configured: readonly string[],
): string[] {
  return Object.entries(variables)
    .filter(([name, v]) => !("default" in v) && !configured.includes(name))
    .map(([name]) => name);
}

/** Why a YAML value cannot be the variable's, or undefined. The value is never quoted. */
function valueProblem(node: YamlNode | null, type: string | undefined): string | undefined {
  const kind = (type ?? "any").replace(/\s+/g, "");
  if (node === null || (isScalar(node) && node.value === null)) {
    return "has no value (an empty value would be pushed as an empty string)";
  }
  const complex = /^(list|set|tuple|map|object)\b/.test(kind);
  if (!isScalar(node)) {
    return complex
      ? `the value is YAML ${isMap(node) ? "map" : "list"}; Coder reads this file as text values: write it as JSON text in quotes (e.g. '["a", "b"]' or '{"k": "v"}')`
      : `the value is a YAML ${isMap(node) ? "map" : "list"}; the variable has type ${kind}`;
  }
  const value = node.value;
  if (kind === "number") {
    const ok =
      typeof value === "number"
        ? Number.isFinite(value)
        : typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value));
    return ok ? undefined : "the value is not a number; the variable has type number";
  }
  if (kind === "bool") {
    return typeof value === "boolean" || value === "true" || value === "false"
      ? undefined
      : "the value is not true or false; the variable has type bool";
  }
  if (complex) {
    let parsed: unknown;
    try {
      parsed = typeof value === "string" ? JSON.parse(value) : undefined;
    } catch {
      parsed = undefined;
    }
    const isList = Array.isArray(parsed);
    const isObject = typeof parsed === "object" && parsed !== null && !isList;
    const wantsList = /^(list|set|tuple)\b/.test(kind);
    if (wantsList ? !isList : !isObject) {
      return `the value is not ${wantsList ? "a JSON list" : "a JSON object"} in quotes; the variable has type ${kind}`;
    }
  }
  return undefined;
}
