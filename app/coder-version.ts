/**
 * The version of the `coder` CLI a push runs, and what that version understands.
 * Pushes differ by CLI release: `--provisioner-tag=-` (clear the tags a template
 * version inherits) exists only from v2.24; an older CLI fails the whole push on it.
 */

/** A released CLI version, as `coder version` prints it (`Coder v2.24.1+abc123 …`). */
export interface CoderVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** The first release whose `templates push` accepts `--provisioner-tag=-`. */
export const CLEAR_TAGS_SINCE: CoderVersion = { major: 2, minor: 24, patch: 0 };

/**
 * The version a dry run assumes when no `coder` is on PATH: the oldest one that
 * clears tags, so the printed commands work on every current CLI.
 */
export const ASSUMED_CODER_VERSION: CoderVersion = CLEAR_TAGS_SINCE;

/**
 * The version in `coder version` output, or undefined when there is none or it is a
 * development build (`v0.0.0-devel`), which says nothing about the flags it has.
 */
export function parseCoderVersion(output: string): CoderVersion | undefined {
  const match = /\bv(\d+)\.(\d+)\.(\d+)/.exec(output);
  if (match === null) return undefined;
  const [major, minor, patch] = match.slice(1, 4).map(Number);
  if (major === 0 && minor === 0 && patch === 0) return undefined;
  return { major, minor, patch };
}

/** Whether `a` is the same release as `b` or a later one. */
export function atLeast(a: CoderVersion, b: CoderVersion): boolean {
  if (a.major !== b.major) return a.major > b.major;
  if (a.minor !== b.minor) return a.minor > b.minor;
  return a.patch >= b.patch;
}

/** Whether this CLI's `templates push` understands `--provisioner-tag=-`. */
export function clearsInheritedTags(version: CoderVersion): boolean {
  return atLeast(version, CLEAR_TAGS_SINCE);
}

/** `v2.24.0` */
export function formatCoderVersion(version: CoderVersion): string {
  return `v${version.major}.${version.minor}.${version.patch}`;
}

// --- What each release understands ----------------------------------------------------------

/** A flag or behaviour of the `coder` CLI that some releases have and others lack. */
export interface CliFeature {
  /** The first release that has it; undefined when no released CLI has it. */
  readonly since: CoderVersion | undefined;
  /** Where that is read from (coder/coder source, pull request, docs). */
  readonly source: string;
}

const v = (minor: number): CoderVersion => ({ major: 2, minor, patch: 0 });

/**
 * The oldest release this project's commands were checked against. Every flag of
 * `templates push`, `templates edit` and `templates versions promote` that the table below
 * does not name is in every release from this one on.
 */
export const OLDEST_CHECKED_CODER_VERSION: CoderVersion = v(20);

/**
 * The version table: what the commands of `npm run push` and `npm run promote` depend on,
 * by first release. Read from coder/coder (cli/templatepush.go, cli/templateedit.go,
 * cli/templateversions.go, docs/reference/cli) and the pull requests named.
 */
export const CODER_CLI_FEATURES = {
  /** `templates push --provisioner-tag=-` clears the tags a new version would inherit. */
  clearTags: { since: CLEAR_TAGS_SINCE, source: "cli/templatepush.go (mid-2025)" },
  /**
   * `templates push --name` also names the first version, when the push creates the template;
   * older releases gave that version a generated name (coder/coder#17331, fixed by #17114).
   */
  nameOnCreate: { since: v(21), source: "coder/coder#17114, #17331" },
  /** `templates versions promote --template <t> --template-version <v>`. */
  promote: { since: v(17), source: "coder/coder#15051 (cli/templateversions.go)" },
  /**
   * `templates push --display-name/--description/--icon`: proposed in 2026
   * (coder/coder#23735), its pull requests (#23743, #23983) closed unmerged; no release has them,
   * so `templates edit` sets the three.
   */
  pushMetadataFlags: { since: undefined, source: "coder/coder#23743, #23983 (closed)" },
  /** `templates edit --abstract` (the text Coder Agents read to pick a template). */
  editAbstract: { since: v(35), source: "coder/coder#25978, #26006 (June 2026)" },
} as const satisfies Readonly<Record<string, CliFeature>>;

export type CliFeatureName = keyof typeof CODER_CLI_FEATURES;

/**
 * Whether a CLI of `version` has `feature`. A CLI whose release is unknown (`null`: a
 * development build) is treated as one without any feature the table dates: the commands
 * then work on any release, at worst doing less.
 */
export function hasCliFeature(
  version: CoderVersion | null,
  feature: CliFeatureName,
  features: Readonly<Record<CliFeatureName, CliFeature>> = CODER_CLI_FEATURES,
): boolean {
  const since = features[feature].since;
  return since !== undefined && version !== null && atLeast(version, since);
}
