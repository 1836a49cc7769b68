/**
 * Static provisioner tags: the `k=v` pairs a template is pushed with
 * (`coder templates push --provisioner-tag k=v`). Coder runs the template's import
 * job and every workspace build only on a provisioner that carries all of them.
 */
import { coderArrayItem } from "./coder-cli";

/** Tag name → value. An empty set means "untagged": generic provisioners only. */
export type ProvisionerTags = Readonly<Record<string, string>>;

/**
 * Where a template's Terraform has to run, stated by the template itself so that
 * push, the docs and the operator config agree.
 */
export interface ProvisionerRequirement {
  /** Static tags pushed with the template. @default {} (untagged) */
  readonly tags: ProvisionerTags;
  /**
   * What a provisioner with these tags holds or reaches that others do not,
   * written for the operator who deploys it (shown in docs/provisioners.md).
   */
  readonly reason: string;
  /**
   * Files such a provisioner must have (credentials it uses on behalf of the template),
   * shown in the docs as Helm volume mounts. @default []
   */
  readonly files?: readonly ProvisionerFile[];
}

/** A file a provisioner mounts, e.g. a kubeconfig for another cluster. */
export interface ProvisionerFile {
  /** Absolute path inside the provisioner container. */
  readonly path: string;
  /** What it holds, for the docs. */
  readonly holds: string;
}

/** Tag names Coder's CLI splits on `=` and trims; keep them to a safe, readable alphabet. */
const TAG_KEY = /^[A-Za-z0-9][A-Za-z0-9_./-]*$/;
/** Longest tag name or value accepted (Coder stores tags in a JSON column; keep them short). */
const MAX_TAG_LENGTH = 128;
/** `scope` is implicit on every job; a template may only ask for user-scoped provisioners. */
const SCOPE_VALUES = ["organization", "user"];

/**
 * Why `key=value` cannot be a static provisioner tag, or undefined when it can.
 * `owner` is set by Coder itself (the pushing user for scope=user provisioners).
 */
export function provisionerTagProblem(key: string, value: unknown): string | undefined {
  if (!TAG_KEY.test(key) || key.length > MAX_TAG_LENGTH) {
    return `tag name "${key}" is not allowed; use letters, digits and _ . / - (starting with a letter or digit, at most ${MAX_TAG_LENGTH} characters)`;
  }
  if (key === "owner") {
    return `tag "owner" is set by Coder itself (the pushing user, for scope=user provisioners); do not set it`;
  }
  if (typeof value !== "string") {
    return `tag "${key}" has a ${describeType(value)} value; a tag value is a non-empty string`;
  }
  if (value === "" || value.trim() !== value) {
    return `tag "${key}" has the value ${JSON.stringify(value)}; a tag value is a non-empty string without surrounding blanks`;
  }
  if (/[\r\n\t]/.test(value)) {
    return `tag "${key}" has the value ${JSON.stringify(value)}; a tag value has no line breaks or tabs`;
  }
  if (value.length > MAX_TAG_LENGTH) {
    return `tag "${key}" has a value longer than ${MAX_TAG_LENGTH} characters`;
  }
  if (key === "scope" && !SCOPE_VALUES.includes(value)) {
    return `tag "scope" must be one of ${SCOPE_VALUES.join(", ")} (got ${JSON.stringify(value)})`;
  }
  return undefined;
}

/** Throws, naming the owner (a template or a config path), when any tag is invalid. */
export function validateProvisionerTags(owner: string, tags: ProvisionerTags): void {
  for (const [key, value] of Object.entries(tags)) {
    const problem = provisionerTagProblem(key, value);
    if (problem !== undefined) throw new Error(`${owner}: ${problem}`);
  }
}

/**
 * The `--provisioner-tag` arguments for a push, in key order so that the command is
 * the same on every run. An untagged template passes `--provisioner-tag=-`, which
 * clears tags a previous version had (without it Coder reuses the active version's tags),
 * when the CLI understands it (`canClear`: v2.24 and later); an older CLI fails the
 * push on it, so then no tag argument is passed at all.
 */
export function provisionerTagArgs(tags: ProvisionerTags, canClear = true): string[] {
  const keys = Object.keys(tags).sort();
  if (keys.length === 0) return canClear ? ["--provisioner-tag=-"] : [];
  return keys.flatMap((key) => ["--provisioner-tag", coderArrayItem(`${key}=${tags[key]}`)]);
}

/** `k=v k=v` for messages and docs; `(untagged)` for none. */
export function formatProvisionerTags(tags: ProvisionerTags): string {
  const keys = Object.keys(tags).sort();
  return keys.length === 0 ? "(untagged)" : keys.map((k) => `${k}=${tags[k]}`).join(" ");
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "list";
  return typeof value;
}
