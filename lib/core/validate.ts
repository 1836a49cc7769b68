/**
 * Synth-time checks of the values a template author or operator hands to the templates:
 * Kubernetes and Coder names, counts, caps and ids. A value that Kubernetes or Coder would
 * refuse only when a workspace starts (or, worse, silently accept, like a negative cap)
 * fails synth instead, with one message format that names the template, the prop and the
 * value:
 *
 *   template "packer-builder": identityNamespace = "Bad_NS": must be a DNS-1123 label (…)
 *
 * Each {@link Rule} is data: what a valid value is (`requirement`), how to test one in
 * TypeScript, and, for rules that template variables use, the same test as a Terraform
 * condition, so a variable's `validation` block at push time and the check of an operator's
 * default at synth (app/variable-defaults.ts) cannot disagree.
 *
 * Values that are cdktf tokens (known only when Terraform runs) are not checked here.
 */
import { Token, TerraformStack, type IConstruct } from "./cdk";
import { MAX_CODER_TEMPLATE_NAME } from "./coder-names";
import { type Expr, hcl } from "./expr";

/** A rule a value must follow. */
export interface Rule {
  /** What a valid value is, as a noun phrase: "a number greater than 0". */
  readonly requirement: string;
  /** Whether `value` follows the rule. */
  test(value: unknown): boolean;
  /**
   * The same rule as a Terraform condition on `ref` (a variable's value token), for a
   * variable `validation` block. Absent when the rule has no Terraform form.
   */
  condition?(ref: Expr<unknown>): Expr<boolean>;
}

/** A prop that breaks a rule; the message is `template "<id>": <prop> = <value>: <reason>`. */
export class InvalidPropError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidPropError";
  }
}

// --- Rules ---------------------------------------------------------------------------------

/**
 * A string matched in full by `pattern` (written for both JavaScript and Terraform's RE2:
 * anchors, classes, groups and `{m,n}` only) and at most `maxLength` characters long.
 */
export function patternRule(requirement: string, pattern: string, maxLength?: number): Rule {
  const regex = new RegExp(pattern);
  return {
    requirement,
    test: (value) =>
      typeof value === "string" &&
      regex.test(value) &&
      (maxLength === undefined || value.length <= maxLength),
    condition: (ref) =>
      maxLength === undefined
        ? hcl`can(regex(${pattern}, ${ref}))`
        : hcl`can(regex(${pattern}, ${ref})) && try(length(${ref}) <= ${maxLength}, false)`,
  };
}

/** `""` or a value that follows `rule`: for variables where empty means "none". */
export function emptyOr(rule: Rule): Rule {
  return {
    requirement: `"" or ${rule.requirement}`,
    test: (value) => value === "" || rule.test(value),
    condition: rule.condition ? (ref) => hcl`${ref} == "" || ${rule.condition!(ref)}` : undefined,
  };
}

/** One of `allowed` (compared with ===). */
export function oneOf(allowed: readonly (string | number)[]): Rule {
  return {
    requirement: `one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`,
    test: (value) => allowed.includes(value as string | number),
    condition: (ref) => hcl`contains(${[...allowed]}, ${ref})`,
  };
}

/** A list with at least one element, each following `rule`. */
export function nonEmptyListOf(rule: Rule): Rule {
  return {
    requirement: `a non-empty list of ${rule.requirement}`,
    test: (value) => Array.isArray(value) && value.length > 0 && value.every((v) => rule.test(v)),
  };
}

/** A whole number from `min` to `max`, both included. */
export function wholeNumberBetween(min: number, max: number): Rule {
  return {
    requirement: `a whole number from ${min} to ${max}`,
    test: (value) =>
      Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
    condition: (v) => hcl`try(floor(${v}) == ${v} && ${v} >= ${min} && ${v} <= ${max}, false)`,
  };
}

/** A number greater than 0 (a cap or a size: 0 or less would make every workspace fail). */
export const POSITIVE_NUMBER: Rule = {
  requirement: "a number greater than 0",
  test: (value) => typeof value === "number" && Number.isFinite(value) && value > 0,
  condition: (ref) => hcl`try(${ref} > 0, false)`,
};

/** A whole number greater than 0. */
export const POSITIVE_WHOLE_NUMBER: Rule = {
  requirement: "a whole number greater than 0",
  test: (value) => Number.isInteger(value) && (value as number) > 0,
  condition: (v) => hcl`try(floor(${v}) == ${v} && ${v} > 0, false)`,
};

/** A string with at least one character that is not a blank. */
export const NON_EMPTY_STRING: Rule = {
  requirement: "a non-empty string",
  test: (value) => typeof value === "string" && value.trim() !== "",
  condition: (ref) => hcl`try(trimspace(${ref}) != "", false)`,
};

/**
 * A Kubernetes DNS-1123 label: what namespaces (and many other names) must be. Lower-case
 * letters, digits and `-`, starting and ending with a letter or digit, 1 to 63 characters.
 */
export const DNS_LABEL = patternRule(
  "a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters)",
  "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$",
);

/**
 * A Kubernetes DNS-1123 subdomain: what the names of Secrets, ServiceAccounts and PVCs
 * must be. DNS-1123 labels joined by dots, at most 253 characters.
 */
export const DNS_SUBDOMAIN = patternRule(
  "a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters)",
  "^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
  253,
);

/**
 * The name of an existing Role or ClusterRole. Kubernetes allows any path segment; this is
 * the usual shape, with `:` for the system roles (`system:aggregate-to-view`).
 */
export const RBAC_ROLE_NAME = patternRule(
  "a role name (lower-case letters, digits, '-', '.' and ':', starting and ending with a letter or digit, at most 253 characters)",
  "^[a-z0-9]([-a-z0-9.:]*[a-z0-9])?$",
  253,
);

/** A Kubernetes label value: empty, or up to 63 letters, digits, `-`, `_`, `.` with alphanumeric ends. */
export const LABEL_VALUE = patternRule(
  "a label value (at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit, or empty)",
  "^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$",
  63,
);

/** Longest Coder template name. */
export { MAX_CODER_TEMPLATE_NAME };

/** A Coder template name: letters and digits with single hyphens between, at most 31 characters. */
export const CODER_TEMPLATE_NAME = patternRule(
  `a Coder template name (letters and digits with single hyphens between, at most ${MAX_CODER_TEMPLATE_NAME} characters)`,
  "^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$",
  MAX_CODER_TEMPLATE_NAME,
);

/**
 * A Coder parameter name. Coder stores it as a key and users pass it as
 * `--parameter name=value` and in `?param.name=` links, so this project keeps to what
 * needs no quoting anywhere: a letter, then letters, digits, `_` or `-`, at most 64.
 */
export const CODER_PARAMETER_NAME = patternRule(
  "a Coder parameter name (a letter, then letters, digits, '_' or '-', at most 64 characters)",
  "^[A-Za-z][A-Za-z0-9_-]{0,63}$",
);

/** A Terraform identifier, as in a resource address (`kubernetes_secret_v1.<name>`). */
export const TERRAFORM_NAME = patternRule(
  "a Terraform name (a letter or '_', then letters, digits, '_' or '-')",
  "^[A-Za-z_][A-Za-z0-9_-]*$",
);

/**
 * A container image reference: `[registry[:port]/]path[:tag][@digest]`, path components in
 * lower case. Kubernetes would take a malformed one and the pod would never start.
 */
export const IMAGE_REFERENCE = patternRule(
  "an image reference such as registry.example.com/team/image:tag (lower-case path, optional tag and digest, no blanks)",
  "^([A-Za-z0-9.-]+(:[0-9]+)?/)?[a-z0-9]+([._-]+[a-z0-9]+)*(/[a-z0-9]+([._-]+[a-z0-9]+)*)*(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@[a-z0-9]+([+._-][a-z0-9]+)*:[0-9a-fA-F]{32,})?$",
  255,
);

/** A Kubernetes resource quantity such as `10Gi`, `500m` or `1.5`. */
export const QUANTITY = patternRule(
  "a Kubernetes quantity such as 10Gi, 500M or 1.5",
  "^[+]?([0-9]+([.][0-9]*)?|[.][0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[mkMGTPE]|[eE][+-]?[0-9]+)?$",
);

/** A PVC's access modes: one or more of those Kubernetes knows. */
export const ACCESS_MODES = nonEmptyListOf(
  oneOf(["ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"]),
);

/**
 * A user or group id a workspace runs as: not root (0), within the range Kubernetes accepts
 * for runAsUser/runAsGroup/fsGroup (up to 2147483647).
 */
export const NON_ROOT_ID: Rule = {
  requirement: "a user or group id from 1 to 2147483647 (workspaces do not run as root)",
  test: (value) =>
    Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 2147483647,
};

/** An http:// or https:// URL with a host and no user or password in it. */
export const HTTP_URL = patternRule(
  "an http:// or https:// URL without credentials (http[s]://host[:port][/path])",
  "^https?://[^/@\\s]+(/[^@\\s]*)?$",
);

/**
 * An https:// URL, or an http:// one to a host inside the cluster: a Service's name (one
 * label) or a name with a `.svc` label (`builder.ns.svc`, `builder.ns.svc.cluster.local`).
 * For a service the template sends git tokens to: in the clear only over the cluster's own
 * network.
 */
export const HTTPS_OR_IN_CLUSTER_HTTP_URL = patternRule(
  "an https:// URL, or an http:// URL to a Service in the cluster (one label, or a name with a .svc label such as builder.ns.svc.cluster.local), without credentials (git tokens are sent there)",
  "^(https://[^/@\\s]+|http://([A-Za-z0-9-]+|[^/@:\\s]+[.]svc([.][^/@:\\s]+)?)(:[0-9]+)?)(/[^@\\s]*)?$",
);

/** An https:// URL with a host and no user or password in it. */
export const HTTPS_URL = patternRule(
  "an https:// URL without credentials (https://host[:port][/path])",
  "^https://[^/@\\s]+(/[^@\\s]*)?$",
);

/** A SHA-256 digest: 64 hexadecimal digits (either case). */
export const SHA256_HEX = patternRule(
  "a SHA-256 digest (64 hexadecimal digits)",
  "^[0-9A-Fa-f]{64}$",
);

/**
 * Matches a URL with credentials: a password in any scheme (`scheme://user:password@`), or
 * any user part of an http(s) URL, which is as often a token (`https://ghp_…@`) as a name;
 * also behind git's `<transport>::<address>` form (`https::https://ghp_…@host/…`), which git
 * hands to the transport as it is. `ssh://git@host/…` and scp-style `git@host:…` name a
 * user, not a secret, and pass.
 */
const URL_WITH_CREDENTIALS =
  "^([A-Za-z][A-Za-z0-9+.-]*::)*([A-Za-z][A-Za-z0-9+.-]*://[^/@]*:[^/@]*@|[hH][tT][tT][pP][sS]?://[^/?#@]*@)";

/**
 * A git remote (https://, ssh:// or scp-style) without credentials in it: a token or
 * password in the URL would be stored in the template, in .git/config and in process lists.
 */
export const GIT_URL_WITHOUT_PASSWORD: Rule = {
  requirement:
    "a git URL without credentials in it (no password, no user name in an http(s) URL; credentials come from Coder, not the URL)",
  test: (value) => typeof value === "string" && !new RegExp(URL_WITH_CREDENTIALS).test(value),
  condition: (ref) => hcl`!can(regex(${URL_WITH_CREDENTIALS}, ${ref}))`,
};

/**
 * {@link GIT_URL_WITHOUT_PASSWORD}'s credentials, found anywhere in a text (a description, a
 * preset value): a URL with a password in any scheme, or with any user part in http(s).
 */
const URL_CREDENTIALS_ANYWHERE =
  "([A-Za-z][A-Za-z0-9+.-]*://[^/@\\s]*:[^/@\\s]*@|[hH][tT][tT][pP][sS]?://[^/?#@\\s]*@)";

/** Whether `text` holds a URL with credentials anywhere in it. */
export function containsUrlCredentials(text: string): boolean {
  return new RegExp(URL_CREDENTIALS_ANYWHERE).test(text);
}

// --- Checks --------------------------------------------------------------------------------

/** The message for a value that breaks a rule. */
export function invalidPropMessage(template: string, prop: string, value: unknown, rule: Rule) {
  return `template "${template}": ${prop} = ${describeValue(value)}: must be ${rule.requirement}`;
}

/**
 * Throws {@link InvalidPropError} unless `value` follows `rule`. `undefined` (a prop left to
 * its default) and tokens (values known only when Terraform runs) pass.
 */
export function checkProp(template: string, prop: string, value: unknown, rule: Rule): void {
  if (value === undefined || isToken(value)) return;
  if (!rule.test(value))
    throw new InvalidPropError(invalidPropMessage(template, prop, value, rule));
}

/**
 * {@link checkProp} for a construct's prop: the template is the construct's stack, and the
 * prop is named by the construct's path inside it, e.g. `harvester_identity.bindings[0].roleName`.
 */
export function checkConstructProp(
  construct: IConstruct,
  prop: string,
  value: unknown,
  rule: Rule,
): void {
  const stack = TerraformStack.of(construct);
  const relative = construct.node.path
    .slice(stack.node.path.length)
    .replace(/^\//, "")
    .split("/")
    .join(".");
  checkProp(stack.node.id, relative === "" ? prop : `${relative}.${prop}`, value, rule);
}

/** Whether `value` is, or contains, a cdktf token (its value is only known at apply time). */
function isToken(value: unknown): boolean {
  return (
    (typeof value === "string" || typeof value === "number" || typeof value === "object") &&
    value !== null &&
    Token.isUnresolved(value)
  );
}

/**
 * A value as JSON for a message, with credentials in URLs masked: a message ends up in CI
 * logs, and the rule that refused the value may be the one that keeps passwords out of URLs.
 */
export function describeValue(value: unknown): string {
  const json = JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "string" ? maskUrlCredentials(v) : v,
  );
  return json === undefined ? String(value) : json;
}

/**
 * `scheme://user:password@` → `scheme://user:***@`; all of an http(s) URL's user part, which is
 * as often a token as a name (`https://ghp_…@`, `https://ghp_…:x-oauth-basic@`) → `***`. Up to
 * the last `@` before the path: a password may hold an `@` itself.
 */
export function maskUrlCredentials(text: string): string {
  return text.replace(
    /\b([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/@\s:]*(?:@[^/@\s:]*)*)(:[^/\s]*)?@/g,
    (match, scheme: string, user: string, password: string | undefined) => {
      if (/^https?$/i.test(scheme)) return `${scheme}://***@`;
      return password !== undefined ? `${scheme}://${user}:***@` : match;
    },
  );
}
