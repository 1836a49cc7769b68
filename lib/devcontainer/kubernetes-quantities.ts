/**
 * Synth-time facts about Kubernetes resource names and quantities, as the
 * devcontainer template accepts them from `customizations.kubernetes`.
 *
 * The patterns are written for RE2 (Terraform's `regex()`), and they are also valid
 * JavaScript regular expressions with the same meaning, so tests can check them
 * directly. They are deliberately stricter than Kubernetes where Kubernetes is lax
 * (no exponent form, no sign): a value we reject costs a warning, a value Kubernetes
 * rejects would fail the workspace build.
 */

/** Bytes in a GiB: the unit of the memory and disk parameters and of max_memory. */
export const GIB = 1073741824;

/**
 * A quantity: digits with an optional fraction (`1.5`) or a leading-dot fraction
 * (`.5`), then an optional suffix. Capture 1 is the number, capture 2 the suffix
 * (always present, possibly empty).
 */
export const QUANTITY_PATTERN =
  "^([0-9]+(?:\\.[0-9]+)?|\\.[0-9]+)((?:m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?)$";

/**
 * What each suffix multiplies the number by, as exact decimal text (2^60 has no exact
 * JavaScript number literal form; Terraform's numbers are arbitrary precision).
 */
export const QUANTITY_SUFFIX_FACTORS: Readonly<Record<string, string>> = {
  "": "1",
  m: "0.001",
  k: "1000",
  M: "1000000",
  G: "1000000000",
  T: "1000000000000",
  P: "1000000000000000",
  E: "1000000000000000000",
  Ki: (2n ** 10n).toString(),
  Mi: (2n ** 20n).toString(),
  Gi: (2n ** 30n).toString(),
  Ti: (2n ** 40n).toString(),
  Pi: (2n ** 50n).toString(),
  Ei: (2n ** 60n).toString(),
};

/** The binary suffixes, largest first: a size is written in the first that holds it exactly. */
export const BINARY_SUFFIXES: readonly string[] = ["Ei", "Pi", "Ti", "Gi", "Mi", "Ki"];

/** A DNS-1123 subdomain (IsDNS1123Subdomain), unanchored; its 253-character limit is separate. */
const DNS_SUBDOMAIN = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";

/** The name part of a qualified name: at most 63 characters, alphanumeric at both ends. */
const QUALIFIED_NAME_PART = "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?";

/**
 * A resource name: `cpu`, `memory`, `ephemeral-storage`, `hugepages-<n>(K|M|G)i`, or a
 * qualified name `<domain>/<name>` (e.g. `nvidia.com/gpu`: a DNS subdomain, a name of at most
 * 63 characters). Also keeps names safe to print in the agent's metadata script. The
 * domain's length limits are {@link LABEL_KEY_LONG_PREFIX_PATTERN} and
 * {@link EXTENDED_RESOURCE_LONG_PREFIX_PATTERN}; {@link isValidResourceName} applies them all.
 */
export const RESOURCE_NAME_PATTERN =
  "^(cpu|memory|ephemeral-storage|hugepages-[0-9]+[KMG]i|" +
  `${DNS_SUBDOMAIN}/${QUALIFIED_NAME_PART})$`;

/**
 * Names the API server takes for native resources, reserved for the standard ones: any name
 * that contains `kubernetes.io/` (helper.IsPrefixedNativeResource is a plain "contains", so
 * `xkubernetes.io/gpu` counts too).
 */
export const KUBERNETES_IO_RESOURCE_PATTERN = "kubernetes[.]io/";

/**
 * The prefix of an extended resource name that the API server refuses (helper
 * IsExtendedResourceName): ResourceQuota names quota as `requests.<name>`, so no extended
 * resource may start with it.
 */
export const EXTENDED_RESOURCE_REQUESTS_PREFIX = "requests.";

/**
 * An extended resource whose domain is longer than 244 characters: `requests.<name>` must
 * be a qualified name too (IsExtendedResourceName), and 9 + 244 is a DNS subdomain's 253.
 */
export const EXTENDED_RESOURCE_LONG_PREFIX_PATTERN = "^[^/]{245,}/";

/** The resources the template sets itself; every other valid name is an extended resource. */
export const STANDARD_RESOURCE_NAMES: readonly string[] = ["cpu", "memory", "ephemeral-storage"];

/** Requests when a repository asks for nothing: workspaces pack densely. */
export const DEFAULT_CPU_REQUEST = "250m";
export const DEFAULT_CPU_REQUEST_CORES = 0.25;
export const DEFAULT_MEMORY_REQUEST = "512Mi";
export const DEFAULT_MEMORY_REQUEST_BYTES = 536870912;

/** The limit a GPU in `hostRequirements` becomes. */
export const HOST_REQUIREMENTS_GPU_RESOURCE = "nvidia.com/gpu";

/** The numeric value of a quantity string, or undefined when it is not one (synth-time twin of the HCL). */
export function quantityValue(text: string): number | undefined {
  const match = new RegExp(QUANTITY_PATTERN).exec(text);
  if (!match) return undefined;
  return Number(match[1]) * Number(QUANTITY_SUFFIX_FACTORS[match[2]]);
}

/**
 * True when `name` is a resource name the template passes on (synth-time twin of the name
 * checks in sizing.ts): the pattern, no `..`, a domain of at most 253 characters, not a
 * kubernetes.io name, and an extended resource name the API server accepts.
 */
export function isValidResourceName(name: string): boolean {
  return (
    new RegExp(RESOURCE_NAME_PATTERN).test(name) &&
    !name.includes("..") &&
    !new RegExp(LABEL_KEY_LONG_PREFIX_PATTERN).test(name) &&
    !new RegExp(KUBERNETES_IO_RESOURCE_PATTERN).test(name) &&
    !name.startsWith(EXTENDED_RESOURCE_REQUESTS_PREFIX) &&
    !new RegExp(EXTENDED_RESOURCE_LONG_PREFIX_PATTERN).test(name)
  );
}

/**
 * A label key (apimachinery IsQualifiedName): an optional DNS subdomain prefix and `/`, then
 * a name of at most 63 characters. Also the rule for toleration keys. The prefix's own limit
 * (253 characters) is {@link LABEL_KEY_LONG_PREFIX_PATTERN}.
 */
export const LABEL_KEY_PATTERN = `^(${DNS_SUBDOMAIN}/)?${QUALIFIED_NAME_PART}$`;

/** A label key whose prefix is longer than a DNS subdomain may be. */
export const LABEL_KEY_LONG_PREFIX_PATTERN = "^[^/]{254,}/";

/**
 * A label value (IsValidLabelValue): empty, or at most 63 characters, alphanumeric at both
 * ends. Also the rule for nodeSelector values and `Equal` toleration values.
 */
export const LABEL_VALUE_PATTERN = "^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$";
