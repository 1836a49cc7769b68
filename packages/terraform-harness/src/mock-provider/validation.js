"use strict";
/**
 * The mock's provider-side behaviour beyond the schema: the rule table of
 * validation-rules.js applied to configuration, coder_parameter's rules, ForceNew
 * replacement, and the zero values the real kubernetes provider sends for what a
 * security_context block leaves unset. Unknown values are skipped, as the real SDK skips
 * them until they are known.
 */
const { Unknown, DynamicValue } = require("./cty-values");
const syntax = require("./kubernetes-syntax");
const { RULES, PARAMETER_RULES, FORCE_NEW, POD_SPEC, CONTAINERS } = require("./validation-rules");

const isKnown = (v) => v !== null && v !== undefined && !(v instanceof Unknown);
/** Go's %q for a string (close enough for the ASCII the rules quote). */
const q = (v) => JSON.stringify(String(v));
/** Go's %q for a []string: ["a" "b"]. */
const qList = (values) => `[${values.map(q).join(" ")}]`;

/**
 * The values at `path` (dot-separated, "" for the whole object) inside `root`, each with the
 * SDK's flat key ("spec.0.template.0.spec.0.container.1.name") and its AttributePath steps.
 * Lists and sets are walked element by element.
 */
function* valuesAt(root, path) {
  const segments = path === "" ? [] : path.split(".");
  function* walk(value, index, key, steps) {
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
    const name = segments[index];
    yield* walk(value[name], index + 1, join(key, name), [...steps, { attribute_name: name }]);
  }
  yield* walk(root, 0, "", []);
}

const join = (key, part) => (key === "" ? part : `${key}.${part}`);

/** A rule's paths for one type: {pod}, {podmeta} and {container} filled in. */
function expandPaths(typeName, paths) {
  const spec = POD_SPEC[typeName];
  const out = [];
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
const rulesByType = new Map();
function rulesFor(typeName) {
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

/** Implementations of `check.kind`: (value, key, check) → error messages. */
const CHECKS = {
  name: (v, key) => syntax.dnsSubdomain(String(v)).map((e) => `${key} ${e}`),
  dnsLabelName: (v, key) => syntax.dnsLabel(String(v)).map((e) => `${key} ${e}`),
  labels: (map, key) => {
    const errors = [];
    for (const [k, v] of Object.entries(map)) {
      for (const e of syntax.qualifiedName(k)) errors.push(`${key} (${q(k)}) ${e}`);
      if (isKnown(v))
        for (const e of syntax.labelValue(String(v))) errors.push(`${key} (${q(v)}) ${e}`);
    }
    return errors;
  },
  annotations: (map, key) =>
    Object.keys(map).flatMap((k) =>
      syntax.qualifiedName(k.toLowerCase()).map((e) => `${key} (${q(k)}) ${e}`),
    ),
  oneOf: (v, key, check) =>
    check.values.includes(v)
      ? []
      : [`expected ${key} to be one of ${qList(check.values)}, got ${v}`],
  eachOneOf: (list, key, check) =>
    list.flatMap((v, i) => (isKnown(v) ? CHECKS.oneOf(v, `${key}.${i}`, check) : [])),
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
    Number(v) >= check.min ? [] : [`expected ${key} to be at least (${check.min}), got ${v}`],
  modeBits: (v, key) => {
    const text = String(v);
    const errors = [];
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
    Object.entries(map).flatMap(([k, v]) =>
      isKnown(v) ? syntax.quantity(String(v)).map((e) => `${key}.${k} (${q(v)}): ${e}`) : [],
    ),
  port: (v, key) => syntax.portNumber(v).map((e) => `${key} ${e}`),
  maxBytes: (v, _key, check) =>
    Buffer.byteLength(String(v), "utf8") > check.max ? [check.message] : [],
  pattern: (v, _key, check) =>
    new RegExp(check.pattern).test(String(v)) ? [] : [check.message.replace("%q", q(v))],
  conflicts: (object, _key, check) => {
    if (!isKnown(object[check.attribute])) return [];
    return check.with
      .filter((other) => isKnown(object[other]))
      .map((other) => `"${check.attribute}": conflicts with ${other}`);
  },
  cron: (v) => {
    const problem = cronProblem(String(v));
    return problem ? [`${v} is not a valid cron expression: ${problem}`] : [];
  },
  scriptTriggers: (s) => {
    const start = s.run_on_start;
    const stop = s.run_on_stop;
    const cron = s.cron;
    if ([start, stop, cron].some((v) => v instanceof Unknown)) return [];
    const errors = [];
    if (start !== true && stop !== true && !cron)
      errors.push("at least one of `run_on_start`, `run_on_stop`, or `cron` must be set");
    if (start !== true && s.start_blocks_login === true)
      errors.push("start_blocks_login can only be set if `run_on_start` is true");
    return errors;
  },
  uniqueField: (list, _key, check) => {
    const seen = new Set();
    const errors = [];
    for (const item of list) {
      if (!isKnown(item) || !isKnown(item[check.field])) continue;
      const value = item[check.field];
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
function cronProblem(expression) {
  const text = expression.trim();
  if (text.startsWith("@")) {
    if (CRON_DESCRIPTORS.includes(text) || /^@every \S+$/.test(text)) return null;
    return `unrecognized descriptor: ${text}`;
  }
  const fields = text.split(/\s+/).filter(Boolean);
  if (fields.length < 5 || fields.length > 6)
    return `expected 5 to 6 fields, found ${fields.length}: ${fields}`;
  const ranges = [
    [0, 59],
    [0, 59],
    [0, 23],
    [1, 31],
    [1, 12],
    [0, 6],
  ];
  for (let i = 0; i < fields.length; i++) {
    for (const part of fields[i].split(",")) {
      const m = /^(\*|\?|(\d+)(-(\d+))?)(\/(\d+))?$/.exec(part);
      if (!m && !/^[A-Za-z]{3}(-[A-Za-z]{3})?$/.test(part))
        return `failed to parse int from ${part}: strconv.Atoi: parsing ${q(part)}: invalid syntax`;
      if (m && m[2] !== undefined) {
        const [low, high] = ranges[i];
        const a = Number(m[2]);
        const b = m[4] !== undefined ? Number(m[4]) : a;
        if (a < low || b > high) return `end of range (${b}) above maximum (${high}): ${part}`;
      }
    }
  }
  return null;
}

/** Diagnostics of the rule table for one resource or data source configuration. */
function validateConfig(typeName, config) {
  if (!isKnown(config)) return [];
  const diagnostics = [];
  for (const rule of rulesFor(typeName)) {
    const check = CHECKS[rule.check.kind];
    if (!check) throw new Error(`validation-rules.js: unknown check kind ${rule.check.kind}`);
    for (const path of rule.paths) {
      for (const { value, key, steps } of valuesAt(config, path)) {
        for (const summary of check(value, key, rule.check)) {
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
function validateSecret(config, value, transition) {
  const env = isKnown(config.env) ? config.env : "";
  const file = isKnown(config.file) ? config.file : "";
  const error = (summary, detail = "") => [{ severity: "ERROR", summary, detail }];
  if ((env === "") === (file === "")) return error("exactly one of `env` or `file` must be set");
  if (transition !== "start" || (isKnown(value) && value !== "")) return [];
  const requirement = env !== "" ? `environment variable ${q(env)}` : `file ${q(file)}`;
  const help = isKnown(config.help_message) ? `Help message: ${config.help_message}\n\n` : "";
  return error(`Missing required secret: ${requirement}`, `Required: ${requirement}\n\n${help}`);
}

/** coder_parameter's own rules, checked when it is read; `value` is what it resolved to. */
function validateParameter(config, value) {
  const errors = [];
  const type = isKnown(config.type) ? config.type : "string";
  const isType = (text) => valueIsType(type, text);
  if (isKnown(config.default) && config.default !== "") {
    const problem = isType(config.default);
    if (problem) errors.push(problem);
  }
  const validation = Array.isArray(config.validation) ? config.validation[0] : undefined;
  if (validation && isKnown(value) && value !== "") {
    const problem = validationProblem(validation, type, String(value));
    if (problem) errors.push(problem);
  }
  const options = Array.isArray(config.option) ? config.option.filter(isKnown) : [];
  // A multi-select list(string) offers its elements as options: each option is one string,
  // and each element of the default must be an option (provider/parameter.go,
  // ValidateFormType's option type and the multi-select default check).
  const multiSelect = type === "list(string)" && config.form_type === "multi-select";
  const isOptionType = multiSelect ? () => null : isType;
  if (options.length > 0) {
    const names = new Set();
    const values = new Set();
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
      let chosen = [];
      try {
        chosen = JSON.parse(config.default);
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
    if (!list.includes(config.form_type)) {
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

function valueIsType(type, value) {
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
        const parsed = JSON.parse(value);
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

function validationProblem(v, type, value) {
  const set = (x) => isKnown(x);
  if (type !== "number" && set(v.min)) return `a min cannot be specified for a ${type} type`;
  if (type !== "number" && set(v.max)) return `a max cannot be specified for a ${type} type`;
  if (type !== "string" && set(v.regex) && v.regex !== "")
    return `a regex cannot be specified for a ${type} type`;
  if (type === "string" && set(v.regex) && v.regex !== "") {
    if (!set(v.error) || v.error === "")
      return "an error must be specified with a regex validation";
    let regex;
    try {
      regex = new RegExp(v.regex);
    } catch (error) {
      return `compile regex ${q(v.regex)}: ${error.message}`;
    }
    if (!regex.test(value)) return `${v.error} (value ${q(value)} does not match ${q(v.regex)})`;
  }
  if (type === "number") {
    if (!/^[+-]?\d+$/.test(value)) return `value ${q(value)} is not a number`;
    const n = Number(value);
    if (set(v.min) && n < Number(v.min)) return `value ${n} is less than the minimum ${v.min}`;
    if (set(v.max) && n > Number(v.max)) return `value ${n} is more than the maximum ${v.max}`;
    if (
      set(v.monotonic) &&
      v.monotonic !== "" &&
      !["increasing", "decreasing"].includes(v.monotonic)
    )
      return 'number monotonicity can be either "increasing" or "decreasing"';
  }
  return null;
}

/**
 * The AttributePaths of ForceNew attributes whose planned value differs from the prior
 * state's (an unknown planned value counts as a change, as the SDK counts it).
 */
function requiresReplace(typeName, priorState, plannedState) {
  if (!isKnown(priorState) || !isKnown(plannedState)) return [];
  let paths = FORCE_NEW[typeName] || [];
  if (paths.includes("*")) paths = Object.keys(plannedState).filter((name) => name !== "id");
  const replace = [];
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
function at(value, path) {
  let current = value;
  const steps = [];
  for (const name of path.split(".")) {
    if (Array.isArray(current)) {
      current = current[0];
      steps.push({ element_key_int: 0 });
    }
    steps.push({ attribute_name: name });
    if (!isKnown(current) || typeof current !== "object") return { value: null, steps };
    current = current[name];
  }
  return { value: current === undefined ? null : current, steps };
}

function sameValue(a, b) {
  if (a instanceof Unknown || b instanceof Unknown) return false;
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

/** Null, empty list and empty map compare equal, as the SDK's diff treats them. */
function normalize(value) {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.length === 0 ? null : value.map(normalize);
  if (value instanceof DynamicValue) return normalize(value.value);
  if (typeof value === "object") {
    const keys = Object.keys(value).sort();
    if (keys.length === 0) return null;
    return Object.fromEntries(keys.map((k) => [k, normalize(value[k])]));
  }
  return value;
}

/**
 * What the real kubernetes provider sends for a container's security_context: it reads every
 * field of the block, so an unset bool goes out as false, and allow_privilege_escalation as
 * its schema default, true (schema_container.go securityContextSchema, structures_container.go
 * expandContainerSecurityContext). The pod's run_as_non_root likewise goes out as false
 * (structures_pod.go expandPodSecurityContext). Planned values show what the API receives.
 */
const CONTAINER_SECURITY_ZERO = {
  allow_privilege_escalation: true,
  privileged: false,
  read_only_root_filesystem: false,
  run_as_non_root: false,
};
const POD_SECURITY_ZERO = { run_as_non_root: false };

function expandSecurityContexts(typeName, planned) {
  const spec = POD_SPEC[typeName];
  if (!spec || !isKnown(planned)) return planned;
  const path = spec.pod.split(".");
  const fill = (context, zero) => {
    if (!isKnown(context)) return context;
    const filled = { ...context };
    for (const [name, value] of Object.entries(zero))
      if (filled[name] === null) filled[name] = value;
    return filled;
  };
  const expandPod = (pod) => {
    if (!isKnown(pod)) return pod;
    const next = { ...pod };
    if (Array.isArray(next.security_context))
      next.security_context = next.security_context.map((c) => fill(c, POD_SECURITY_ZERO));
    for (const kind of CONTAINERS) {
      if (!Array.isArray(next[kind])) continue;
      next[kind] = next[kind].map((container) => {
        if (!isKnown(container) || !Array.isArray(container.security_context)) return container;
        return {
          ...container,
          security_context: container.security_context.map((c) => fill(c, CONTAINER_SECURITY_ZERO)),
        };
      });
    }
    return next;
  };
  const descend = (value, depth) => {
    if (!isKnown(value)) return value;
    if (Array.isArray(value)) return value.map((v) => descend(v, depth));
    if (depth === path.length) return expandPod(value);
    return { ...value, [path[depth]]: descend(value[path[depth]], depth + 1) };
  };
  return descend(planned, 0);
}

module.exports = {
  validateSecret,
  validateConfig,
  validateParameter,
  requiresReplace,
  expandSecurityContexts,
  valuesAt,
  CHECKS,
};
