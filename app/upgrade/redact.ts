/**
 * The one redaction every output of `npm run plan-upgrade` and `npm run push --
 * --check-upgrade` goes through: the report (text and JSON), each workspace's error (Terraform's
 * diagnostics, which quote a refused value), the API server's refusals, and every message and
 * log line. Their output lands in terminals and CI logs, and workspace states and parameters
 * hold tokens. What is masked, each as `***`:
 * - the credentials of a URL: all of an http(s) URL's user part (`https://***@host`, a token as
 *   often as a name), the password of any other scheme (`ssh://git:***@host`);
 * - every value a schema marks sensitive: the state's attributes the provider schemas mark
 *   sensitive (the agent token, the owner's session token and SSH key, external auth tokens,
 *   Secret data) or that Terraform recorded as sensitive (`sensitive_attributes`), the template
 *   variables declared `sensitive`, the values of ephemeral parameters and of the parameters
 *   the template says may hold secrets (`mayHoldSecrets`: devcontainer_variables), as written
 *   and as Terraform quotes them, and each of their lines;
 * - anything shaped like a well-known token (GitHub, GitLab, a JWT), wherever it comes from.
 */
import { maskUrlCredentials } from "../../lib/core/validate";
import { vendoredBlockSchemas, type BlockSchema } from "../../lib/private/block-schemas";

/** What a redacted value becomes. */
export const REDACTED = "***";

/** Shorter values ("false", "0", "") are no secrets worth masking ordinary words for. */
const MIN_SECRET_LENGTH = 6;

/**
 * Well-known token shapes, masked wherever they appear: also right after a quoted line break
 * (`main\\nghp_…`), so with no word boundary before them.
 */
const TOKEN_SHAPES: readonly RegExp[] = [
  /gh[pousr]_[A-Za-z0-9]{20,}/g,
  /github_pat_[A-Za-z0-9_]{20,}/g,
  /glpat-[A-Za-z0-9_-]{20,}/g,
  /eyJ[A-Za-z0-9_-]{6,}\.eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*/g,
];

/** `text` with `secrets`, URL credentials and token shapes masked (see the file comment). */
export function redact(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  for (const secret of secretForms(secrets)) out = out.split(secret).join(REDACTED);
  out = maskUrlCredentials(out);
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED);
  return out;
}

/** Each secret as written, as JSON and Go quote it, and its lines; longest first. */
function secretForms(secrets: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    for (const form of [secret, JSON.stringify(secret).slice(1, -1), ...secret.split(/\r?\n/)]) {
      if (form.trim().length >= MIN_SECRET_LENGTH) forms.add(form);
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Every string inside a JSON value (numbers and booleans are no secrets worth masking). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The values of `attributes` that `schema` marks sensitive, nested blocks and attributes too. */
function sensitiveValues(attributes: unknown, schema: BlockSchema | undefined): string[] {
  if (schema === undefined) return [];
  const objects = Array.isArray(attributes) ? attributes : [attributes];
  return objects
    .filter(isRecord)
    .flatMap((object) => [
      ...Object.entries(schema.attributes ?? {}).flatMap(([name, attribute]) =>
        attribute.sensitive === true
          ? stringsIn(object[name])
          : sensitiveValues(object[name], attribute.nested_type),
      ),
      ...Object.entries(schema.block_types ?? {}).flatMap(([name, block]) =>
        sensitiveValues(object[name], block.block),
      ),
    ]);
}

/** The value at a Terraform state path (`[{type: "get_attr", value: "data"}, …]`). */
function atPath(value: unknown, path: unknown): unknown {
  let at = value;
  for (const step of Array.isArray(path) ? path : []) {
    if (!isRecord(step)) return undefined;
    const key = step.value;
    if (Array.isArray(at) && typeof key === "number") at = at[key];
    else if (isRecord(at) && typeof key === "string") at = at[key];
    else return undefined;
  }
  return at;
}

/**
 * The secrets of a workspace's state (a parsed state file): sensitive attributes by schema and
 * by the state's own record, and the values of the parameters that may hold secrets (ephemeral
 * ones, and those named in `secretParameters`).
 */
export function stateSecrets(state: unknown, secretParameters: readonly string[] = []): string[] {
  const resources = isRecord(state) && Array.isArray(state.resources) ? state.resources : [];
  const schemas = vendoredBlockSchemas();
  return resources.filter(isRecord).flatMap((resource) => {
    const kind = resource.mode === "data" ? "data" : "resource";
    const schema = schemas.get(`${kind}.${String(resource.type)}`);
    const instances = Array.isArray(resource.instances) ? resource.instances : [];
    return instances.filter(isRecord).flatMap((instance) => {
      const attributes = instance.attributes;
      const marked = Array.isArray(instance.sensitive_attributes)
        ? instance.sensitive_attributes.flatMap((p) => stringsIn(atPath(attributes, p)))
        : [];
      const parameter =
        resource.type === "coder_parameter" &&
        isRecord(attributes) &&
        (attributes.ephemeral === true || secretParameters.includes(String(attributes.name)))
          ? stringsIn([attributes.value, attributes.default])
          : [];
      return [...sensitiveValues(attributes, schema), ...marked, ...parameter];
    });
  });
}

/**
 * The values of the template variables that the configuration `config` (synth's model)
 * declares sensitive: as given (`values`, the variables file) and as defaulted.
 */
export function sensitiveVariableValues(
  config: unknown,
  values: Readonly<Record<string, unknown>>,
): string[] {
  const variables = isRecord(config) && isRecord(config.variable) ? config.variable : {};
  return Object.entries(variables)
    .filter(([, v]) => isRecord(v) && v.sensitive === true)
    .flatMap(([name, v]) => stringsIn([values[name], (v as Json).default]));
}
