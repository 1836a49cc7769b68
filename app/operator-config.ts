/**
 * The operator configuration: an optional JSONC file in which a deployment lists the
 * templates it synthesizes, their Coder names, provisioner tags and template-variable
 * defaults. Comments and trailing commas are allowed. Every error names the file, the
 * line and column, the field, the bad value and what is allowed, because the person
 * reading it is editing that file, not our code.
 */
import * as fs from "fs";
import * as path from "path";
import {
  findNodeAtLocation,
  getNodePath,
  parseTree,
  printParseErrorCode,
  type Node as JsonNode,
  type ParseError,
} from "jsonc-parser";
import { ConfigError } from "./config-path";

export { CONFIG_ENV_VAR, ConfigError, DEFAULT_CONFIG_FILE, resolveConfigPath } from "./config-path";
import { provisionerTagProblem, type ProvisionerTags } from "./provisioner-tags";
import { CODER_TEMPLATE_NAME, MAX_CODER_TEMPLATE_NAME } from "../lib/core/validate";
import { parseCoderSettings, type CoderTemplateSettings } from "./coder-template-settings";
import { didYouMean } from "./closest-name";

/** What the operator set for one template; unset fields keep the template's defaults. */
export interface TemplateConfig {
  /** Coder template name. @default the template id */
  readonly name?: string;
  /** Replaces the template's own static provisioner tags ({} = untagged). @default the template's */
  readonly provisionerTags?: ProvisionerTags;
  /** Template-variable defaults, applied to the TerraformVariables at synth. @default {} */
  readonly variables: Readonly<Record<string, unknown>>;
  /**
   * Synth-time settings of the template (its props, e.g. packer-builder's role bindings),
   * checked by the template against its own rules. @default {}: the template's defaults
   */
  readonly settings: Readonly<Record<string, unknown>>;
  /**
   * The operator's workspace presets, as written (a list); checked against the template's
   * parameters at synth by applyOperatorPresets (app/operator-presets.ts). @default []
   */
  readonly presets: readonly unknown[];
  /**
   * The template's settings in Coder (autostop, dormancy, …), set by `npm run push` with
   * `coder templates edit` (app/coder-template-settings.ts). @default {}: left as they are in Coder
   */
  readonly coderSettings: CoderTemplateSettings;
  /**
   * The exact release of each provider the deployment's provisioners resolve (a mirror that
   * holds one release, a pinned lock file): synth checks it is in the template's bounds, and
   * push locks that release. Empty: the newest the bounds admit.
   */
  readonly providers: Readonly<Record<string, string>>;
}

/** A loaded, shape-checked configuration. */
export interface OperatorConfig {
  /** The file it came from, as given (for messages). */
  readonly file: string;
  /** Template id → settings; undefined when the file does not list templates (all are built). */
  readonly templates?: ReadonlyMap<string, TemplateConfig>;
  /**
   * `file:line:column` of a field's value, or of its name with `part: "key"`, for errors
   * found later (an unknown variable points at its name, a wrong value at the value). A
   * field the file does not hold points at the nearest enclosing value it does.
   */
  position(jsonPath: readonly (string | number)[], part?: "key" | "value"): string;
}

const TOP_LEVEL_FIELDS = ["$schema", "templates"];
const TEMPLATE_FIELDS = [
  "name",
  "provisionerTags",
  "variables",
  "settings",
  "presets",
  "coderSettings",
  "providers",
];

/** Providers whose release an operator may pin (the ones whose bounds synth computes). */
export const PINNABLE_PROVIDERS: readonly string[] = ["coder", "kubernetes"];

/** Reads and checks a config file. */
export function loadOperatorConfig(
  file: string,
  knownTemplates: readonly string[],
  displayName: string = shortPath(file),
): OperatorConfig {
  return parseOperatorConfig(fs.readFileSync(file, "utf8"), displayName, knownTemplates);
}

/** Checks config text; `file` is only used in messages. */
export function parseOperatorConfig(
  text: string,
  file: string,
  knownTemplates: readonly string[],
): OperatorConfig {
  const at = positionsIn(text, file);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0];
    throw new ConfigError(`${at(e.offset)}: not valid JSONC (${describeParseError(e)})`);
  }
  if (root === undefined) throw new ConfigError(`${at(0)}: the file is empty; expected an object`);
  const check = nodeChecks(at);

  refuseUrlCredentials(root, at);
  check.expectObject(root, "(top level)", TOP_LEVEL_FIELDS);
  const templatesNode = findNodeAtLocation(root, ["templates"]);
  let templates: Map<string, TemplateConfig> | undefined;
  if (templatesNode !== undefined) {
    templates = new Map();
    const names = new Map<string, string>();
    for (const [id, node, keyNode] of check.expectObject(templatesNode, "templates")) {
      templates.set(id, templateConfig(id, node, keyNode, knownTemplates, names, check));
    }
  }

  return {
    file,
    templates,
    position: (jsonPath, part = "value") => {
      // A path the file does not hold (a field left to its default) points at the nearest
      // enclosing value that it does hold.
      let depth = jsonPath.length;
      let node = findNodeAtLocation(root, [...jsonPath]);
      while (node === undefined && depth > 0) {
        node = findNodeAtLocation(root, jsonPath.slice(0, --depth));
      }
      const key = node?.parent?.type === "property" ? node.parent.children?.[0] : undefined;
      return at((part === "key" ? key?.offset : undefined) ?? node?.offset ?? 0);
    },
  };
}

/** `file:line:column` of an offset in `text`. */
function positionsIn(text: string, file: string): (offset: number) => string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
  return (offset) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) line++;
    return `${file}:${line + 1}:${offset - lineStarts[line] + 1}`;
  };
}

/** The checks every field goes through, failing with the node's position. */
interface NodeChecks {
  readonly fail: (node: JsonNode, field: string, problem: string) => never;
  /** An object's properties, each key once and (given `allowed`) a known one. */
  readonly expectObject: (
    node: JsonNode,
    field: string,
    allowed?: readonly string[],
  ) => [string, JsonNode, JsonNode][];
}

function nodeChecks(at: (offset: number) => string): NodeChecks {
  const fail = (node: JsonNode, field: string, problem: string): never => {
    throw new ConfigError(`${at(node.offset)}: ${field}: ${problem}`);
  };
  const expectObject = (node: JsonNode, field: string, allowed?: readonly string[]) => {
    if (node.type !== "object") {
      fail(node, field, `${describeValue(node)} is not allowed; expected an object`);
    }
    const seen = new Set<string>();
    for (const property of node.children ?? []) {
      const [keyNode] = property.children ?? [];
      const key = String(keyNode.value);
      if (seen.has(key)) fail(keyNode, joinField(field, key), "is set twice");
      seen.add(key);
      if (allowed !== undefined && !allowed.includes(key)) {
        fail(
          keyNode,
          joinField(field, key),
          `unknown field${didYouMean(key, allowed)}; allowed: ${allowed.filter((a) => a !== "$schema").join(", ")}`,
        );
      }
    }
    return properties(node);
  };
  return { fail, expectObject };
}

/**
 * One entry of `templates`: a known template, a Coder name no other entry has (`names`, the
 * names taken so far, is added to), and its fields.
 */
function templateConfig(
  id: string,
  node: JsonNode,
  keyNode: JsonNode,
  knownTemplates: readonly string[],
  names: Map<string, string>,
  check: NodeChecks,
): TemplateConfig {
  const { fail, expectObject } = check;
  const field = `templates.${id}`;
  if (!knownTemplates.includes(id)) {
    fail(keyNode, field, `unknown template "${id}"; known: ${knownTemplates.join(", ")}`);
  }
  const fields = new Map(
    expectObject(node, field, TEMPLATE_FIELDS).map(([k, v]) => [k, v] as const),
  );
  let name: string | undefined;
  const nameNode = fields.get("name");
  if (nameNode !== undefined) {
    if (!CODER_TEMPLATE_NAME.test(nameNode.value)) {
      fail(
        nameNode,
        `${field}.name`,
        `${describeValue(nameNode)} is not allowed; a Coder template name is letters and digits with single hyphens between, at most ${MAX_CODER_TEMPLATE_NAME} characters`,
      );
    }
    name = String(nameNode.value);
  }
  const coderName = name ?? id;
  const other = names.get(coderName);
  if (other !== undefined) {
    fail(nameNode ?? keyNode, `${field}.name`, `"${coderName}" is already the name of ${other}`);
  }
  names.set(coderName, field);

  const tagsNode = fields.get("provisionerTags");
  const provisionerTags =
    tagsNode === undefined
      ? undefined
      : provisionerTagsOf(tagsNode, `${field}.provisionerTags`, check);
  const variables = valuesOf(fields.get("variables"), `${field}.variables`, check);
  const settings = valuesOf(fields.get("settings"), `${field}.settings`, check);
  const presets = presetList(fields.get("presets"), `${field}.presets`, fail);
  const coderSettingsNode = fields.get("coderSettings");
  const coderSettings =
    coderSettingsNode === undefined
      ? {}
      : parseCoderSettings(coderSettingsNode, `${field}.coderSettings`, fail, describeValue);
  const providers = providerPins(fields.get("providers"), `${field}.providers`, check);
  return { name, provisionerTags, variables, settings, presets, coderSettings, providers };
}

/** `providers`: a release (`2.17.0`) per pinnable provider. */
function providerPins(
  node: JsonNode | undefined,
  field: string,
  check: NodeChecks,
): Record<string, string> {
  const pins: Record<string, string> = {};
  if (node === undefined) return pins;
  for (const [key, valueNode] of check.expectObject(node, field, [...PINNABLE_PROVIDERS])) {
    if (typeof valueNode.value !== "string" || !/^\d+\.\d+\.\d+$/.test(valueNode.value)) {
      check.fail(
        valueNode,
        `${field}.${key}`,
        `${describeValue(valueNode)} is not allowed; expected one release, such as "2.19.0"`,
      );
    }
    setOwn(pins, key, String(valueNode.value));
  }
  return pins;
}

/** A template's provisionerTags, each tag checked as Coder checks it. */
function provisionerTagsOf(tagsNode: JsonNode, field: string, check: NodeChecks): ProvisionerTags {
  const tags: Record<string, string> = {};
  for (const [key, valueNode, tagKeyNode] of check.expectObject(tagsNode, field)) {
    const tagField = `${field}.${key}`;
    const problem = provisionerTagProblem(key, valueNode.value);
    if (problem !== undefined) {
      const blamed = problem.startsWith(`tag name`) || key === "owner" ? tagKeyNode : valueNode;
      check.fail(blamed, tagField, `${describeValue(valueNode)} is not allowed: ${problem}`);
    }
    setOwn(tags, key, String(valueNode.value));
  }
  return tags;
}

/** An object of values as given (a template's variables or settings); `{}` when not set. */
function valuesOf(
  node: JsonNode | undefined,
  field: string,
  check: NodeChecks,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (node === undefined) return values;
  for (const [key, valueNode] of check.expectObject(node, field)) {
    setOwn(values, key, nodeValue(valueNode));
  }
  return values;
}

/**
 * An http(s) URL with userinfo (`https://user@`, `https://user:password@`): the user part
 * of an http(s) URL is as often a token (`https://ghp_…@github.com/…`) as a name.
 */
const HTTP_URL_WITH_USERINFO = /\bhttps?:\/\/[^\s/?#@]*@/i;

/**
 * Refuses any string value of the file that holds an http(s) URL with userinfo, wherever it
 * is: a default would land in main.tf and in every workspace's scripts. The message
 * names the position and the field, never the value (it may be a secret).
 */
function refuseUrlCredentials(root: JsonNode, at: (offset: number) => string): void {
  const visit = (node: JsonNode): void => {
    if (node.type === "string" && HTTP_URL_WITH_USERINFO.test(String(node.value))) {
      const isKey = node.parent?.type === "property" && node.parent.children?.[0] === node;
      const field = fieldName(getNodePath(node)) + (isKey ? " (a field name)" : "");
      throw new ConfigError(
        `${at(node.offset)}: ${field}: an http(s) URL with a user name or password in it is not allowed ` +
          `(the value is not shown: it may be a token). Credentials in this file would ship in the ` +
          `template and in every workspace's scripts; give the URL without them and let Coder ` +
          `provide credentials (external auth, push-time variables).`,
      );
    }
    (node.children ?? []).forEach(visit);
  };
  visit(root);
}

/** `["templates", "x", "settings", "list", 0, "url"]` → `templates.x.settings.list[0].url`. */
function fieldName(jsonPath: readonly (string | number)[]): string {
  return (
    jsonPath.reduce<string>(
      (field, part) =>
        typeof part === "number" ? `${field}[${part}]` : field === "" ? part : `${field}.${part}`,
      "",
    ) || "(top level)"
  );
}

// --- Presets ---------------------------------------------------------------------------------

/**
 * `templates.<id>.presets` as plain values: a list, else an error. Their fields are checked
 * against the template (its parameters) by applyOperatorPresets, with positions from
 * OperatorConfig.position.
 */
function presetList(
  node: JsonNode | undefined,
  field: string,
  fail: (node: JsonNode, field: string, problem: string) => never,
): unknown[] {
  if (node === undefined) return [];
  if (node.type !== "array") {
    fail(node, field, `${describeValue(node)} is not allowed; expected a list of presets`);
  }
  return (node.children ?? []).map(nodeValue);
}

/** The path relative to the current directory when it is below it, else absolute. */
function shortPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative)
    ? path.resolve(file)
    : relative;
}

/** Describes a bad value for messages: the JSON text, or its kind for objects and lists. */
export function describeValue(node: JsonNode): string {
  if (node.type === "object") return "an object";
  if (node.type === "array") return "a list";
  return JSON.stringify(node.value);
}

function properties(node: JsonNode): [string, JsonNode, JsonNode][] {
  return (node.children ?? []).map((property) => {
    const [keyNode, valueNode] = property.children ?? [];
    return [String(keyNode.value), valueNode, keyNode];
  });
}

/**
 * `target[key] = value` as an own property, whatever the key: a plain assignment of the key
 * `__proto__` sets the object's prototype instead, so the fields under it slipped past the
 * unknown-field checks and were still read (a setting given as `"__proto__": {...}`).
 */
function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function nodeValue(node: JsonNode): unknown {
  if (node.type === "object") {
    return Object.fromEntries(properties(node).map(([k, v]) => [k, nodeValue(v)]));
  }
  if (node.type === "array") return (node.children ?? []).map(nodeValue);
  return node.value;
}

function joinField(parent: string, key: string): string {
  return parent === "(top level)" ? key : `${parent}.${key}`;
}

function describeParseError(error: ParseError): string {
  const readable: Record<string, string> = {
    InvalidSymbol: "unexpected character",
    InvalidNumberFormat: "malformed number",
    PropertyNameExpected: "expected a quoted field name",
    ValueExpected: "expected a value",
    ColonExpected: "expected ':'",
    CommaExpected: "expected ','",
    CloseBraceExpected: "expected '}'",
    CloseBracketExpected: "expected ']'",
    EndOfFileExpected: "unexpected text after the end",
    InvalidCommentToken: "malformed comment",
    UnexpectedEndOfComment: "unterminated comment",
    UnexpectedEndOfString: "unterminated string",
    UnexpectedEndOfNumber: "malformed number",
    InvalidUnicode: "invalid \\u escape",
    InvalidEscapeCharacter: "invalid escape",
    InvalidCharacter: "invalid character in a string",
  };
  const code = printParseErrorCode(error.error);
  return readable[code] ?? code;
}
