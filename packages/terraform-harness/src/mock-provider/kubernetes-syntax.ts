/**
 * The syntax rules of Kubernetes names, labels and quantities, as apimachinery states them
 * (k8s.io/apimachinery pkg/util/validation/validation.go, pkg/api/resource/quantity.go).
 * Each check returns the list of problems, worded as apimachinery words them, so a
 * diagnostic built from them reads like the real provider's or API server's.
 * Shared by the mock provider's rule table and the harness's API validation step.
 */

const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const PORT_NAME_CHARS = /^[-a-z0-9]+$/;
const QUANTITY = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;

const QUALIFIED_NAME_MESSAGE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end " +
  "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for " +
  "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or " +
  "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used " +
  "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and " +
  "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex " +
  "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or " +
  "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value'," +
  "  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const ENV_VAR_MESSAGE =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', " +
  "or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or " +
  "'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

/** IsDNS1123Subdomain: object names, label key prefixes. */
export function dnsSubdomain(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 253) problems.push("must be no more than 253 characters");
  if (!DNS1123_SUBDOMAIN.test(value)) problems.push(SUBDOMAIN_MESSAGE);
  return problems;
}

/** IsDNS1123Label: namespace names, volume and container names. */
export function dnsLabel(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push("must be no more than 63 characters");
  if (!DNS1123_LABEL.test(value)) problems.push(LABEL_MESSAGE);
  return problems;
}

/** IsQualifiedName: label and annotation keys, toleration keys, resource names. */
export function qualifiedName(value: string): string[] {
  const parts = value.split("/");
  let name = value;
  const problems: string[] = [];
  if (parts.length === 2) {
    const [prefix = "", rest = ""] = parts;
    name = rest;
    if (prefix.length === 0) problems.push("prefix part must be non-empty");
    else problems.push(...dnsSubdomain(prefix).map((p) => `prefix part ${p}`));
  } else if (parts.length > 2) {
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must " +
        "start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or " +
        "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') " +
        "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) problems.push("name part must be non-empty");
  else if (name.length > 63) problems.push("name part must be no more than 63 characters");
  if (name.length > 0 && !QUALIFIED_NAME_PART.test(name)) problems.push(QUALIFIED_NAME_MESSAGE);
  return problems;
}

/** IsValidLabelValue: label values, nodeSelector values, Equal toleration values. */
export function labelValue(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push("must be no more than 63 characters");
  if (!LABEL_VALUE.test(value)) problems.push(LABEL_VALUE_MESSAGE);
  return problems;
}

/** IsEnvVarName. */
export function envVarName(value: string): string[] {
  const problems: string[] = [];
  if (!ENV_VAR_NAME.test(value)) problems.push(ENV_VAR_MESSAGE);
  return problems;
}

/** IsValidPortNum. */
export function portNumber(value: unknown): string[] {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 65535
    ? []
    : ["must be between 1 and 65535, inclusive"];
}

/** IsValidPortName (IANA_SVC_NAME). */
export function portName(value: string): string[] {
  const problems: string[] = [];
  if (value.length < 1 || value.length > 15) problems.push("must be no more than 15 characters");
  if (!PORT_NAME_CHARS.test(value))
    problems.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (value.startsWith("-") || value.endsWith("-"))
    problems.push("must not begin or end with a hyphen");
  if (value.includes("--")) problems.push("must not contain consecutive hyphens");
  if (!/[a-z]/.test(value)) problems.push("must contain at least one letter (a-z)");
  return problems;
}

const BINARY_SUFFIXES: Readonly<Record<string, number>> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  "": 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/**
 * resource.ParseQuantity: `{ value }` (a float approximation, enough to compare and to tell
 * whole numbers) or `{ error }` with apimachinery's message.
 */
export function parseQuantity(text: string): { value?: number; error?: string } {
  const value = String(text);
  if (value.length === 0)
    return {
      error:
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    };
  const match = QUANTITY.exec(value);
  if (!match) {
    return {
      error:
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    };
  }
  const [, numberPart = "", suffix = ""] = match;
  if (!/^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/.test(numberPart)) {
    return { error: "unable to parse numeric part of quantity" };
  }
  let multiplier: number;
  const binary = BINARY_SUFFIXES[suffix];
  const decimal = DECIMAL_SUFFIXES[suffix];
  if (binary !== undefined) multiplier = binary;
  else if (decimal !== undefined) multiplier = decimal;
  else if (/^[eE][-+]?[0-9]+$/.test(suffix)) multiplier = 10 ** Number(suffix.slice(1));
  else return { error: "unable to parse quantity's suffix" };
  return { value: Number(numberPart) * multiplier };
}

/** ParseQuantity's problems, as a list. */
export function quantity(value: string): string[] {
  const { error } = parseQuantity(value);
  return error ? [error] : [];
}
