/**
 * A reference scan of a synthesized template (cdk.tf.json): which non-sensitive places
 * (container argv and env values, URLs, labels, annotations, outputs, scripts, check
 * messages) reference
 * a credential, directly or through locals.
 *
 * Credential sources:
 * - variables declared `sensitive = true`;
 * - attributes the provider schemas (schemas/*.schema.json) mark sensitive: the agent's
 *   token, the owner's session/OIDC tokens and SSH key, external auth access tokens,
 *   Secret data (service-account tokens, kubeconfigs), token requests, build credentials.
 *
 * Terraform itself marks values derived from these as sensitive in plans; this scan
 * catches the flows at synth time and names the place, which is what a reviewer needs.
 */
import {
  interpolations,
  references,
  soleExpression,
  stripOuterParens,
} from "../../lib/policy/expressions";
import {
  type BlockSchema,
  type BlockSchemas,
  vendoredBlockSchemas,
} from "../../lib/private/block-schemas";

type Json = Record<string, unknown>;

/** One credential reaching a place where it would be shown or logged. */
export interface SecretLeak {
  /** Where, e.g. `kubernetes_deployment_v1.main spec.template.spec.container[0].command`. */
  readonly place: string;
  /** Which credential, e.g. `coder_agent.main.token (through local.init)`. */
  readonly source: string;
}

/** Sensitive attribute names by `resource.<type>` / `data.<type>`, from the vendored schemas. */
export function sensitiveAttributesFromSchemas(
  schemas: BlockSchemas = vendoredBlockSchemas(),
): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  for (const [kindAndType, block] of schemas) {
    const names = new Set<string>();
    collectSensitive(block, "", names);
    if (names.size > 0) result.set(kindAndType, names);
  }
  return result;
}

function collectSensitive(block: BlockSchema, prefix: string, out: Set<string>): void {
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    if (attribute.sensitive) out.add(prefix + name);
    if (attribute.nested_type) collectSensitive(attribute.nested_type, `${prefix}${name}.`, out);
  }
  for (const [name, nested] of Object.entries(block.block_types ?? {})) {
    collectSensitive(nested.block, `${prefix}${name}.`, out);
  }
}

/** Finds every credential that flows into a non-sensitive place of `config`. */
export function findSecretLeaks(
  config: Json,
  sensitive: Map<string, Set<string>> = sensitiveAttributesFromSchemas(),
): SecretLeak[] {
  const scan = new SecretSources(config, sensitive);
  const leaks: SecretLeak[] = [];
  for (const sink of sinks(config)) {
    for (const ref of referencesOf(sink.value)) {
      const source = scan.sourceOf(ref);
      if (source) leaks.push({ place: sink.place, source });
    }
  }
  return leaks;
}

/** Decides whether a reference carries a credential. */
class SecretSources {
  private readonly sensitiveVariables: Set<string>;
  private readonly locals: Json;
  private readonly localSource = new Map<string, string | undefined>();
  /** terraform_data resources by name: `output` is the `input` it was given, credentials too. */
  private readonly terraformData: Json;

  constructor(
    config: Json,
    private readonly sensitive: Map<string, Set<string>>,
  ) {
    const variables = asRecord(config.variable);
    this.sensitiveVariables = new Set(
      Object.entries(variables)
        .filter(([, v]) => asRecord(v).sensitive === true)
        .map(([k]) => k),
    );
    this.locals = asRecord(config.locals);
    this.terraformData = asRecord(asRecord(config.resource).terraform_data);
  }

  /**
   * The credential `ref` carries, described, or undefined. `without` names an attribute the
   * referenced object was copied without (see {@link wholeObjectAlias}).
   */
  sourceOf(
    ref: string,
    seen: ReadonlySet<string> = new Set(),
    without?: string,
  ): string | undefined {
    const parts = ref.replace(/\[[^\]]*\]/g, "").split(".");
    if (parts[0] === "var") {
      return this.sensitiveVariables.has(parts[1])
        ? `var.${parts[1]} (sensitive variable)`
        : undefined;
    }
    if (parts[0] === "local") return this.localSourceOf(parts[1], parts.slice(2), seen);
    if (parts[0] === "data")
      return this.attributeSource(`data.${parts[1]}`, parts[2], parts.slice(3), without);
    if (["count", "each", "self", "path", "terraform", "module"].includes(parts[0]))
      return undefined;
    if (parts[0] === "terraform_data" && (parts[2] === "output" || parts[2] === "input"))
      return this.terraformDataSource(parts[1], seen);
    return this.attributeSource(`resource.${parts[0]}`, parts[1], parts.slice(2), without);
  }

  /**
   * `type.name.attr…`: a credential when `attr…` is (or is inside, or contains) a sensitive
   * attribute; a whole-object reference carries whatever credentials the type has.
   */
  private attributeSource(
    kind: string,
    name: string,
    attribute: string[],
    without?: string,
  ): string | undefined {
    const names = this.sensitive.get(kind);
    if (!names) return undefined;
    const address = `${kind.replace(/^resource\./, "")}.${name}`;
    const path = attribute.join(".");
    for (const s of names) {
      if (without !== undefined && (s === without || s.startsWith(`${without}.`))) continue;
      if (path === "" || s === path || path.startsWith(`${s}.`) || s.startsWith(`${path}.`)) {
        return `${address}.${path === "" ? s : path}`;
      }
    }
    return undefined;
  }

  /**
   * `terraform_data.name.output` (or `.input`): whatever its `input` carries. The schema marks
   * neither sensitive, as Terraform keeps the input's own marks, so the scan follows it.
   */
  private terraformDataSource(name: string, seen: ReadonlySet<string>): string | undefined {
    const key = `terraform_data.${name}`;
    if (seen.has(key) || !(name in this.terraformData)) return undefined;
    for (const ref of referencesOf(asRecord(this.terraformData[name]).input)) {
      const found = this.sourceOf(ref, new Set([...seen, key]));
      if (found) return `${found} (through ${key})`;
    }
    return undefined;
  }

  /** `local.name.rest`: through an alias of a whole object, or the local's own references. */
  private localSourceOf(
    name: string,
    rest: string[],
    seen: ReadonlySet<string>,
  ): string | undefined {
    if (seen.has(name) || !(name in this.locals)) return undefined;
    const value = this.locals[name];
    const alias = wholeObjectAlias(value);
    if (alias) {
      // An attribute the copy leaves out carries nothing; the copy carries the rest.
      const via = this.sourceOf(
        [alias.address, ...rest].join("."),
        new Set([...seen, name]),
        alias.without,
      );
      return via && `${via} (through local.${name})`;
    }
    if (!this.localSource.has(name)) {
      this.localSource.set(name, undefined);
      let found: string | undefined;
      for (const ref of referencesOf(value)) {
        found = this.sourceOf(ref, new Set([...seen, name]));
        if (found) break;
      }
      this.localSource.set(name, found && `${found} (through local.${name})`);
    }
    return this.localSource.get(name);
  }
}

/** What {@link wholeObjectAlias} found: the object's address, maybe less one attribute. */
interface ObjectAlias {
  readonly address: string;
  /** An attribute the alias filters out (`… if attribute != "name"`). */
  readonly without?: string;
}

/**
 * `one([for m in data.x.y : { for k, v in m : k => v if k != "name" }])`: every instance of
 * data.x.y (or a resource) rebuilt without one attribute.
 */
const FILTERED_OBJECTS =
  /^one\(\[for (\w+) in ((?:data\.)?[A-Za-z_][\w-]*\.[A-Za-z_][\w-]*) : \{ for (\w+), (\w+) in \1 : \3 => \4 if \3 != "(\w+)" \}\]\)$/;

/**
 * The address a local stands for when it is just a whole resource or data source
 * (`one(data.x.y[*])`, `data.x.y[0]`, `try(x.y[0], null)`, or the filtered copy above), so
 * `local.l.attr` can be read as `data.x.y.attr`.
 */
function wholeObjectAlias(value: unknown): ObjectAlias | undefined {
  let expr = soleExpression(value);
  if (expr === undefined) return undefined;
  const filtered = FILTERED_OBJECTS.exec(expr.trim());
  if (filtered) return { address: filtered[2], without: filtered[5] };
  for (;;) {
    expr = stripOuterParens(expr);
    const call = /^(one|try)\((.*)\)$/s.exec(expr);
    if (!call) break;
    expr = call[1] === "try" ? call[2].replace(/,\s*null\s*$/, "") : call[2];
  }
  const plain = expr.replace(/\[[^\]]*\]/g, "");
  if (!/^(data\.)?[A-Za-z_][A-Za-z0-9_-]*\.[A-Za-z_][A-Za-z0-9_-]*$/.test(plain)) return undefined;
  return plain.startsWith("var.") || plain.startsWith("local.") ? undefined : { address: plain };
}

/**
 * `x != null` / `x == null` only tells whether something exists, and `x != ""` whether it is
 * empty (git-credentials.ts: whether the user linked a token); the comparison carries no
 * part of `x`, so such operands are dropped before references are collected.
 */
const NULL_TEST =
  /[A-Za-z_][A-Za-z0-9_.-]*(?:\[[^\]]*\][A-Za-z0-9_.-]*)*\s*[!=]=\s*(?:null\b|""(?![^\s),:?]))/g;

function referencesOf(value: unknown): string[] {
  if (typeof value === "string") {
    return interpolations(value).flatMap((e) => references(e.replace(NULL_TEST, "true")));
  }
  if (Array.isArray(value)) return value.flatMap(referencesOf);
  if (value !== null && typeof value === "object")
    return Object.values(value).flatMap(referencesOf);
  return [];
}

/** A place that is not sensitive: shown in the UI, in argv, in logs or in outputs. */
interface Sink {
  readonly place: string;
  readonly value: unknown;
}

/** Attributes of Coder resources whose values are shown or logged. */
const CODER_SINKS: Readonly<Record<string, readonly string[]>> = {
  coder_agent: ["startup_script", "shutdown_script", "metadata.script", "motd_file", "dir"],
  coder_script: ["script", "display_name", "log_path"],
  coder_app: ["url", "command", "healthcheck.url", "display_name"],
};

/** Every non-sensitive place of the configuration, with its value. */
export function sinks(config: Json): Sink[] {
  const found: Sink[] = [];
  for (const [name, output] of Object.entries(asRecord(config.output))) {
    if (asRecord(output).sensitive !== true)
      found.push({ place: `output.${name}`, value: asRecord(output).value });
  }
  for (const [name, check] of Object.entries(asRecord(config.check))) {
    for (const [i, assertion] of asArray(asRecord(check).assert).entries()) {
      found.push({
        place: `check.${name}.assert[${i}].error_message`,
        value: asRecord(assertion).error_message,
      });
    }
  }
  for (const [kind, prefix] of [
    ["resource", ""],
    ["data", "data."],
  ] as const) {
    for (const [type, byName] of Object.entries(asRecord(config[kind]))) {
      for (const [name, body] of Object.entries(asRecord(byName))) {
        collectSinks(type, `${prefix}${type}.${name}`, asRecord(body), "", [], found);
      }
    }
  }
  for (const [name, body] of Object.entries(asRecord(config.module))) {
    collectSinks("module", `module.${name}`, asRecord(body), "", [], found);
  }
  return found;
}

function collectSinks(
  type: string,
  address: string,
  body: Json,
  at: string,
  blocks: string[],
  out: Sink[],
): void {
  for (const [key, value] of Object.entries(body)) {
    if (key === "//" || key === "lifecycle" || key === "depends_on") continue;
    const place = at === "" ? key : `${at}.${key}`;
    const schemaPath = [...blocks, key].join(".");
    if (isSinkAttribute(type, key, schemaPath, blocks, body)) {
      out.push({ place: `${address} ${place}`, value });
      continue;
    }
    if (key === "dynamic") {
      for (const [name, dyn] of Object.entries(asRecord(value))) {
        collectSinks(
          type,
          address,
          asRecord(asRecord(dyn).content),
          `${place}.${name}`,
          [...blocks, name],
          out,
        );
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => {
        if (isPlainObject(item))
          collectSinks(type, address, item, `${place}[${i}]`, [...blocks, key], out);
      });
    } else if (isPlainObject(value)) {
      collectSinks(type, address, value, place, [...blocks, key], out);
    }
  }
}

function isSinkAttribute(
  type: string,
  key: string,
  schemaPath: string,
  blocks: string[],
  body: Json,
): boolean {
  // URLs anywhere: a token in a URL ends up in proxies' and servers' access logs.
  if (key === "url" || key.endsWith("_url")) return true;
  if (type.startsWith("kubernetes_")) {
    const inContainer = blocks.some((b) => b === "container" || b === "init_container");
    if (inContainer && (key === "command" || key === "args")) return true;
    // An env value is part of the pod spec, which everyone who may view the namespace's
    // Deployments and pods reads: a credential goes through value_from.secret_key_ref
    // (issue 43.2: the agent token was a literal CODER_AGENT_TOKEN value).
    if (inContainer && blocks.at(-1) === "env" && key === "value") return true;
    if (key === "labels" || key === "annotations" || key === "match_labels") return true;
  }
  if (type === "coder_metadata" && blocks.at(-1) === "item" && key === "value")
    return body.sensitive !== true;
  return (CODER_SINKS[type] ?? []).includes(schemaPath);
}

function asRecord(value: unknown): Json {
  return isPlainObject(value) ? value : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isPlainObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
