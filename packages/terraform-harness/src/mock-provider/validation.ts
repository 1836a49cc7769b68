/**
 * The mock's provider-side behaviour beyond the schema: the rule table of
 * validation-rules.ts applied to configuration, coder_parameter's rules, ForceNew
 * replacement, and the zero values the real kubernetes provider sends for what a
 * security_context block leaves unset. Unknown values are skipped, as the real SDK skips
 * them until they are known.
 */
import { DynamicValue, Unknown } from "./cty-values";
import * as syntax from "./kubernetes-syntax";
import {
  CONTAINERS,
  type Check,
  FORCE_NEW,
  PARAMETER_RULES,
  POD_SPEC,
  RULES,
  SECURITY_CONTEXT_ZEROS,
  type ValidationRule,
} from "./validation-rules";

/** A decoded cty value (cty-values.ts): null, Unknown, a primitive, an array or an object. */
type Value = unknown;
/** An object value, indexed by attribute name. */
type Obj = Record<string, Value>;

/** One step of a Terraform AttributePath. */
export type AttributePathStep = { attribute_name: string } | { element_key_int: number };

/** An AttributePath, as the protocol's messages carry it. */
export interface AttributePath {
  readonly steps: readonly AttributePathStep[];
}

/** A diagnostic, as the protocol's messages carry it. */
export interface MockDiagnostic {
  readonly severity: "ERROR" | "WARNING";
  readonly summary: string;
  readonly detail: string;
  readonly attribute?: AttributePath;
}

/** A value at a path of a configuration (see {@link valuesAt}). */
export interface ValueAt {
  readonly value: Value;
  readonly key: string;
  readonly steps: readonly AttributePathStep[];
}

const isKnown = (v: Value): boolean => v !== null && v !== undefined && !(v instanceof Unknown);
/** Fields of an object value (the checks only visit objects where the schema has them). */
const fields = (v: Value): Obj => v as Obj;
/** Go's %q for a string (close enough for the ASCII the rules quote). */
const q = (v: Value): string => JSON.stringify(String(v));
/** Go's %q for a []string: ["a" "b"]. */
const qList = (values: readonly string[]): string => `[${values.map(q).join(" ")}]`;

/**
 * The values at `path` (dot-separated, "" for the whole object) inside `root`, each with the
 * SDK's flat key ("spec.0.template.0.spec.0.container.1.name") and its AttributePath steps.
 * Lists and sets are walked element by element.
 */
export function* valuesAt(root: Value, path: string): Generator<ValueAt> {
  const segments = path === "" ? [] : path.split(".");
  function* walk(
    value: Value,
    index: number,
    key: string,
    steps: readonly AttributePathStep[],
  ): Generator<ValueAt> {
    if (!isKnown(value)) return;
    if (index === segments.length) {
      yield { value, key, steps };
      return;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        yield* walk(value[i], index, join(key, String(i)), [...steps, { element_key_int: i }]);
      }
      return;
    }
    if (typeof value !== "object" || value instanceof DynamicValue) return;
    const name = segments[index] as string;
    yield* walk(fields(value)[name], index + 1, join(key, name), [
      ...steps,
      { attribute_name: name },
    ]);
  }
  yield* walk(root, 0, "", []);
}

const join = (key: string, part: string): string => (key === "" ? part : `${key}.${part}`);

/** A rule's paths for one type: {pod}, {podmeta} and {container} filled in. */
function expandPaths(typeName: string, paths: readonly string[]): string[] {
  const spec = POD_SPEC[typeName];
  const out: string[] = [];
  for (const path of paths) {
    if (path.includes("{pod}") && !spec) continue;
    if (path.includes("{podmeta}") && !(spec && spec.podmeta)) continue;
    const filled = spec
      ? path.replace("{pod}", spec.pod).replace("{podmeta}", spec.podmeta || "")
      : path;
    if (filled.includes("{container}")) {
      for (const c of CONTAINERS) out.push(filled.replace("{container}", c));
    } else out.push(filled);
  }
  return out;
}

/** Rules by type, with their paths expanded (built once). */
const rulesByType = new Map<string, ValidationRule[]>();
function rulesFor(typeName: string): ValidationRule[] {
  let rules = rulesByType.get(typeName);
  if (!rules) {
    rules = RULES.filter((r) => r.types.includes(typeName)).map((r) => ({
      ...r,
      paths: expandPaths(typeName, r.paths),
    }));
    rulesByType.set(typeName, rules);
  }
  return rules;
}

/** The check of one kind: (value, key, the rule's check) → error messages. */
type CheckOf<K extends Check["kind"]> = (
  value: Value,
  key: string,
  check: Extract<Check, { kind: K }>,
) => string[];

/** Implementations of `check.kind`: (value, key, check) → error messages. */
export const CHECKS: { readonly [K in Check["kind"]]: CheckOf<K> } = {
  name: (v, key) => syntax.dnsSubdomain(String(v)).map((e) => `${key} ${e}`),
  dnsLabelName: (v, key) => syntax.dnsLabel(String(v)).map((e) => `${key} ${e}`),
  labels: (map, key) => {
    const errors: string[] = [];
    for (const [k, v] of Object.entries(fields(map))) {
      for (const e of syntax.qualifiedName(k)) errors.push(`${key} (${q(k)}) ${e}`);
      if (isKnown(v))
        for (const e of syntax.labelValue(String(v))) errors.push(`${key} (${q(v)}) ${e}`);
    }
    return errors;
  },
  annotations: (map, key) =>
    Object.keys(fields(map)).flatMap((k) =>
      syntax.qualifiedName(k.toLowerCase()).map((e) => `${key} (${q(k)}) ${e}`),
    ),
  oneOf: (v, key, check) =>
    check.values.includes(v as string)
      ? []
      : [`expected ${key} to be one of ${qList(check.values)}, got ${v}`],
  eachOneOf: (list, key, check) =>
    (list as Value[]).flatMap((v, i) =>
      isKnown(v) ? CHECKS.oneOf(v, `${key}.${i}`, { kind: "oneOf", values: check.values }) : [],
    ),
  integerString: (v, key) => {
    const text = String(v);
    if (text === "") return [];
    if (!/^[+-]?[0-9]+$/.test(text))
      return [
        `${key}: cannot parse '${text}' as int: strconv.ParseInt: parsing ${q(text)}: invalid syntax`,
      ];
    const n = BigInt(text);
    if (n > 2n ** 63n - 1n || n < -(2n ** 63n))
      return [
        `${key}: cannot parse '${text}' as int: strconv.ParseInt: parsing ${q(text)}: value out of range`,
      ];
    return [];
  },
  atLeast: (v, key, check) =>
    Number(v) >= check.min
      ? []
      : [check.message ?? `expected ${key} to be at least (${check.min}), got ${v}`],
  modeBits: (v, key) => {
    const text = String(v);
    const errors: string[] = [];
    if (!text.startsWith("0"))
      errors.push(`${key}: value ${text} should start with '0' (octal numeral)`);
    if (!/^[0-7]+$/.test(text)) {
      errors.push(
        `${key} :Cannot parse octal numeral (${q(text)}): strconv.ParseInt: parsing ${q(text)}: invalid syntax`,
      );
    } else if (parseInt(text, 8) > 0o777) {
      errors.push(
        `${key} (0${parseInt(text, 8).toString(8)}) expects octal notation (a value between 0 and 0777)`,
      );
    }
    return errors;
  },
  quantity: (v, key) => syntax.quantity(String(v)).map((e) => `${key}.${v} : ${e}`),
  resourceList: (map, key) =>
    Object.entries(fields(map)).flatMap(([k, v]) =>
      isKnown(v) ? syntax.quantity(String(v)).map((e) => `${key}.${k} (${q(v)}): ${e}`) : [],
    ),
  port: (v, key) => syntax.portNumber(v).map((e) => `${key} ${e}`),
  maxBytes: (v, _key, check) =>
    Buffer.byteLength(String(v), "utf8") > check.max ? [check.message] : [],
  pattern: (v, _key, check) =>
    new RegExp(check.pattern).test(String(v)) ? [] : [check.message.replace("%q", q(v))],
  conflicts: (object, _key, check) => {
    const attributes = fields(object);
    if (!isKnown(attributes[check.attribute])) return [];
    return check.with
      .filter((other) => isKnown(attributes[other]))
      .map((other) => `"${check.attribute}": conflicts with ${other}`);
  },
  cron: (v) => {
    const problem = cronProblem(String(v));
    return problem ? [`${v} is not a valid cron expression: ${problem}`] : [];
  },
  scriptTriggers: (script) => {
    const s = fields(script);
    const start = s.run_on_start;
    const stop = s.run_on_stop;
    const cron = s.cron;
    if ([start, stop, cron].some((v) => v instanceof Unknown)) return [];
    const errors: string[] = [];
    if (start !== true && stop !== true && !cron)
      errors.push("at least one of `run_on_start`, `run_on_stop`, or `cron` must be set");
    if (start !== true && s.start_blocks_login === true)
      errors.push("start_blocks_login can only be set if `run_on_start` is true");
    return errors;
  },
  uniqueField: (list, _key, check) => {
    const seen = new Set<Value>();
    const errors: string[] = [];
    for (const item of list as Value[]) {
      if (!isKnown(item) || !isKnown(fields(item)[check.field])) continue;
      const value = fields(item)[check.field];
      if (seen.has(value)) errors.push(check.message.replace("%q", q(value)));
      seen.add(value);
    }
    return errors;
  },
};

const CRON_DESCRIPTORS = [
  "@yearly",
  "@annually",
  "@monthly",
  "@weekly",
  "@daily",
  "@midnight",
  "@hourly",
];
/** ScriptCRONParser: seconds minutes hours day-of-month month [day-of-week], or a descriptor. */
function cronProblem(expression: string): string | null {
  const text = expression.trim();
  if (text.startsWith("@")) {
    if (CRON_DESCRIPTORS.includes(text) || /^@every \S+$/.test(text)) return null;
    return `unrecognized descriptor: ${text}`;
  }
  const fields = text.split(/\s+/).filter(Boolean);
  if (fields.length < 5 || fields.length > 6)
    return `expected 5 to 6 fields, found ${fields.length}: ${fields}`;
  const ranges: readonly (readonly [number, number])[] = [
    [0, 59],
    [0, 59],
    [0, 23],
    [1, 31],
    [1, 12],
    [0, 6],
  ];
  for (const [i, field] of fields.entries()) {
    for (const part of field.split(",")) {
      const m = /^(\*|\?|(\d+)(-(\d+))?)(\/(\d+))?$/.exec(part);
      if (!m && !/^[A-Za-z]{3}(-[A-Za-z]{3})?$/.test(part))
        return `failed to parse int from ${part}: strconv.Atoi: parsing ${q(part)}: invalid syntax`;
      if (m && m[2] !== undefined) {
        const [low, high] = ranges[i] as readonly [number, number];
        const a = Number(m[2]);
        const b = m[4] !== undefined ? Number(m[4]) : a;
        if (a < low || b > high) return `end of range (${b}) above maximum (${high}): ${part}`;
      }
    }
  }
  return null;
}

/** Diagnostics of the rule table for one resource or data source configuration. */
export function validateConfig(typeName: string, config: Value): MockDiagnostic[] {
  if (!isKnown(config)) return [];
  const diagnostics: MockDiagnostic[] = [];
  for (const rule of rulesFor(typeName)) {
    // The table's type ties each kind to its options: the lookup cannot say so by itself.
    const check = CHECKS[rule.check.kind] as CheckOf<Check["kind"]> | undefined;
    if (!check) throw new Error(`validation-rules.ts: unknown check kind ${rule.check.kind}`);
    for (const path of rule.paths) {
      for (const { value, key, steps } of valuesAt(config, path)) {
        for (const summary of check(value, key, rule.check as never)) {
          diagnostics.push({ severity: "ERROR", summary, detail: "", attribute: { steps } });
        }
      }
    }
  }
  return diagnostics;
}

/**
 * coder_secret when it is read (provider/secret.go ReadContext): exactly one of env and file;
 * an empty value fails a start build of a workspace ("Missing required secret"), while a stop
 * or delete reads "" and goes on. `transition` is the workspace's (its fixture).
 */
export function validateSecret(secret: Value, value: Value, transition: Value): MockDiagnostic[] {
  const config = fields(secret);
  const env = isKnown(config.env) ? config.env : "";
  const file = isKnown(config.file) ? config.file : "";
  const error = (summary: string, detail = ""): MockDiagnostic[] => [
    { severity: "ERROR", summary, detail },
  ];
  if ((env === "") === (file === "")) return error("exactly one of `env` or `file` must be set");
  if (transition !== "start" || (isKnown(value) && value !== "")) return [];
  const requirement = env !== "" ? `environment variable ${q(env)}` : `file ${q(file)}`;
  const help = isKnown(config.help_message) ? `Help message: ${config.help_message}\n\n` : "";
  return error(`Missing required secret: ${requirement}`, `Required: ${requirement}\n\n${help}`);
}

/** coder_parameter's own rules, checked when it is read; `value` is what it resolved to. */
export function validateParameter(parameter: Value, value: Value): MockDiagnostic[] {
  const config = fields(parameter);
  const errors: string[] = [];
  const type = isKnown(config.type) ? String(config.type) : "string";
  const isType = (text: Value): string | null => valueIsType(type, String(text));
  if (isKnown(config.default) && config.default !== "") {
    const problem = isType(config.default);
    if (problem) errors.push(problem);
  }
  const validation: Obj | undefined = Array.isArray(config.validation)
    ? (config.validation[0] as Obj | undefined)
    : undefined;
  if (validation && isKnown(value) && value !== "") {
    const problem = validationProblem(validation, type, String(value));
    if (problem) errors.push(problem);
  }
  const options = Array.isArray(config.option) ? (config.option.filter(isKnown) as Obj[]) : [];
  // A multi-select list(string) offers its elements as options: each option is one string,
  // and each element of the default must be an option (provider/parameter.go,
  // ValidateFormType's option type and the multi-select default check).
  const multiSelect = type === "list(string)" && config.form_type === "multi-select";
  const isOptionType = multiSelect ? () => null : isType;
  if (options.length > 0) {
    const names = new Set<Value>();
    const values = new Set<Value>();
    for (const option of options) {
      if (names.has(option.name))
        errors.push(`multiple options cannot have the same name ${q(option.name)}`);
      if (values.has(option.value))
        errors.push(`multiple options cannot have the same value ${q(option.value)}`);
      const problem = isKnown(option.value) ? isOptionType(option.value) : null;
      if (problem) errors.push(problem);
      names.add(option.name);
      values.add(option.value);
    }
    if (multiSelect && isKnown(config.default) && config.default !== "") {
      // A default that is no JSON list of strings was reported above.
      let chosen: unknown = [];
      try {
        chosen = JSON.parse(String(config.default));
      } catch {
        // reported above
      }
      for (const element of Array.isArray(chosen) ? chosen : []) {
        if (!values.has(element)) {
          errors.push(`value ${q(element)} of the default must be defined as one of options`);
        }
      }
    } else if (isKnown(config.default) && config.default !== "" && !values.has(config.default)) {
      errors.push(`default value ${q(config.default)} must be defined as one of options`);
    }
  }
  if (isKnown(config.form_type) && config.form_type !== "") {
    const allowed = PARAMETER_RULES.formTypes[type];
    const list = allowed ? (options.length > 0 ? allowed.options : allowed.free) : [];
    if (!list.includes(String(config.form_type))) {
      errors.push(
        `${q(config.form_type)} is not supported for parameter type ${q(type)} ${options.length > 0 ? "with" : "without"} options, supported form types: ${list.join(", ")}`,
      );
    }
  }
  if (config.ephemeral === true && config.mutable !== true) {
    errors.push("parameter can't be immutable and ephemeral");
  }
  if (config.ephemeral === true && (!isKnown(config.default) || config.default === "")) {
    errors.push("ephemeral parameter requires the default property");
  }
  return errors.map((summary) => ({ severity: "ERROR", summary, detail: "" }));
}

function valueIsType(type: string, value: string): string | null {
  switch (type) {
    case "number":
      return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(value)
        ? null
        : `${q(value)} is not a number`;
    case "bool":
      return [
        "1",
        "t",
        "T",
        "TRUE",
        "true",
        "True",
        "0",
        "f",
        "F",
        "FALSE",
        "false",
        "False",
      ].includes(value)
        ? null
        : `${q(value)} is not a bool`;
    case "list(string)": {
      try {
        const parsed: unknown = JSON.parse(value);
        if (Array.isArray(parsed) && parsed.every((v) => typeof v === "string")) return null;
      } catch {
        // falls through
      }
      return `${q(value)} is not an array of strings`;
    }
    case "string":
      return null;
    default:
      return `invalid type ${q(type)}`;
  }
}

function validationProblem(v: Obj, type: string, value: string): string | null {
  const set = (x: Value): boolean => isKnown(x);
  if (type !== "number" && set(v.min)) return `a min cannot be specified for a ${type} type`;
  if (type !== "number" && set(v.max)) return `a max cannot be specified for a ${type} type`;
  if (type !== "string" && set(v.regex) && v.regex !== "")
    return `a regex cannot be specified for a ${type} type`;
  if (type === "string" && set(v.regex) && v.regex !== "") {
    if (!set(v.error) || v.error === "")
      return "an error must be specified with a regex validation";
    let regex: RegExp;
    try {
      regex = new RegExp(String(v.regex));
    } catch (error) {
      return `compile regex ${q(v.regex)}: ${(error as Error).message}`;
    }
    if (!regex.test(value)) return `${v.error} (value ${q(value)} does not match ${q(v.regex)})`;
  }
  if (type === "number") {
    if (!/^[+-]?\d+$/.test(value)) return `value ${q(value)} is not a number`;
    const n = Number(value);
    if (set(v.min) && n < Number(v.min))
      return `value ${n} is less than the minimum ${String(v.min)}`;
    if (set(v.max) && n > Number(v.max))
      return `value ${n} is more than the maximum ${String(v.max)}`;
    if (
      set(v.monotonic) &&
      v.monotonic !== "" &&
      !["increasing", "decreasing"].includes(String(v.monotonic))
    )
      return 'number monotonicity can be either "increasing" or "decreasing"';
  }
  return null;
}

/**
 * The AttributePaths of ForceNew attributes whose planned value differs from the prior
 * state's (an unknown planned value counts as a change, as the SDK counts it).
 */
export function requiresReplace(
  typeName: string,
  priorState: Value,
  plannedState: Value,
): AttributePath[] {
  if (!isKnown(priorState) || !isKnown(plannedState)) return [];
  let paths = forceNewOf(typeName);
  if (paths.includes("*"))
    paths = Object.keys(fields(plannedState)).filter((name) => name !== "id");
  const replace: AttributePath[] = [];
  for (const path of paths) {
    const before = at(priorState, path);
    const after = at(plannedState, path);
    if (!sameValue(before.value, after.value)) replace.push({ steps: after.steps });
  }
  return replace;
}

/**
 * The value at a dot path through single-element block lists (metadata.0.name), with the
 * AttributePath steps that reach it (Terraform applies them to both states).
 */
function at(value: Value, path: string): { value: Value; steps: AttributePathStep[] } {
  let current = value;
  const steps: AttributePathStep[] = [];
  for (const name of path.split(".")) {
    if (Array.isArray(current)) {
      current = current[0];
      steps.push({ element_key_int: 0 });
    }
    steps.push({ attribute_name: name });
    if (!isKnown(current) || typeof current !== "object") return { value: null, steps };
    current = fields(current)[name];
  }
  return { value: current === undefined ? null : current, steps };
}

function sameValue(a: Value, b: Value): boolean {
  if (a instanceof Unknown || b instanceof Unknown) return false;
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

/** Null, empty list and empty map compare equal, as the SDK's diff treats them. */
function normalize(value: Value): Value {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.length === 0 ? null : value.map(normalize);
  if (value instanceof DynamicValue) return normalize(value.value);
  if (typeof value === "object") {
    const keys = Object.keys(value).sort();
    if (keys.length === 0) return null;
    return Object.fromEntries(keys.map((k) => [k, normalize(fields(value)[k])]));
  }
  return value;
}

/**
 * The planned value with the values the real kubernetes provider sends for the unset fields
 * of each pod's and container's security_context (validation-rules.ts SECURITY_CONTEXT_ZEROS).
 */
export function expandSecurityContexts(typeName: string, planned: Value): Value {
  const spec = POD_SPEC[typeName];
  if (!spec || !isKnown(planned)) return planned;
  const path = spec.pod.split(".");
  const fill = (context: Value, zero: Readonly<Obj>): Value => {
    if (!isKnown(context)) return context;
    const filled = { ...fields(context) };
    for (const [name, value] of Object.entries(zero))
      if (filled[name] === null) filled[name] = value;
    return filled;
  };
  const expandPod = (pod: Value): Value => {
    if (!isKnown(pod)) return pod;
    const next = { ...fields(pod) };
    if (Array.isArray(next.security_context))
      next.security_context = next.security_context.map((c) =>
        fill(c, SECURITY_CONTEXT_ZEROS.pod.values),
      );
    for (const kind of CONTAINERS) {
      if (!Array.isArray(next[kind])) continue;
      next[kind] = next[kind].map((item: Value) => {
        const container = fields(item);
        if (!isKnown(item) || !Array.isArray(container.security_context)) return item;
        return {
          ...container,
          security_context: container.security_context.map((c: Value) =>
            fill(c, SECURITY_CONTEXT_ZEROS.container.values),
          ),
        };
      });
    }
    return next;
  };
  const descend = (value: Value, depth: number): Value => {
    if (!isKnown(value)) return value;
    if (Array.isArray(value)) return value.map((v: Value) => descend(v, depth));
    if (depth === path.length) return expandPod(value);
    const name = path[depth] as string;
    return { ...fields(value), [name]: descend(fields(value)[name], depth + 1) };
  };
  return descend(planned, 0);
}

/** The ForceNew attributes of each type, from the table (built once). */
const forceNewByType = new Map<string, readonly string[]>();
for (const rule of FORCE_NEW) {
  for (const type of rule.types)
    forceNewByType.set(type, [...(forceNewByType.get(type) ?? []), ...rule.attributes]);
}
function forceNewOf(typeName: string): readonly string[] {
  return forceNewByType.get(typeName) ?? [];
}
