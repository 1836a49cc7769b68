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
