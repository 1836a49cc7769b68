/**
 * What a pushed version is called and says, from the git checkout the templates come from:
 * Coder's change-management guide names each template version by the commit's short SHA, so a
 * workspace's version points at the code it was built from. A checkout with uncommitted
 * changes is marked, and its name carries a digest of what is pushed, so two different dirty
 * pushes of one commit never collide (Coder refuses a second version of the same name) while
 * the same dirty content pushed again is refused as the duplicate it is.
 */
import { spawnSync } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";

/** Coder's rule for a version name (codersdk/name.go: TemplateVersionNameValid). */
export const TEMPLATE_VERSION_NAME = /^[a-zA-Z0-9]+(?:[_.-][a-zA-Z0-9]+)*$/;
export const MAX_TEMPLATE_VERSION_NAME = 64;

/** Why `name` cannot be a template version name, or undefined. */
export function versionNameProblem(name: string): string | undefined {
  if (name.length > MAX_TEMPLATE_VERSION_NAME) {
    return `is ${name.length} characters; Coder takes at most ${MAX_TEMPLATE_VERSION_NAME}`;
  }
  if (!TEMPLATE_VERSION_NAME.test(name)) {
    return "is not a version name Coder takes: letters and digits, with single _ . or - between";
  }
  return undefined;
}

/** The commit a push comes from. */
export interface GitVersion {
  /** `git rev-parse --short HEAD`. */
  readonly shortSha: string;
  /** The commit's subject line. */
  readonly subject: string;
  /** Whether the checkout has changes not committed (untracked files included). */
  readonly dirty: boolean;
}

/** The checkout at `dir`, or undefined when it is not one (or git is missing). */
export function gitVersionOf(
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
): GitVersion | undefined {
  const git = (...args: string[]) => {
    const run = spawnSync("git", args, {
      cwd: dir,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 30_000,
    });
    return run.error === undefined && run.status === 0 ? run.stdout : undefined;
  };
  const sha = git("rev-parse", "--short", "HEAD")?.trim();
  if (sha === undefined || !/^[0-9a-f]{4,40}$/.test(sha)) return undefined;
  const subject = git("log", "-1", "--format=%s")?.trim() ?? "";
  const status = git("status", "--porcelain");
  return { shortSha: sha, subject, dirty: status === undefined || status.trim() !== "" };
}

/** A digest of the files under `dir` (names and bytes, in name order): what a push uploads. */
export function folderDigest(dir: string): string {
  const hash = createHash("sha256");
  const visit = (rel: string) => {
    for (const entry of fs
      .readdirSync(path.join(dir, rel), { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) visit(child);
      else if (entry.isFile()) {
        hash.update(`${child}\0`);
        hash.update(fs.readFileSync(path.join(dir, child)));
        hash.update("\0");
      }
    }
  };
  visit("");
  return hash.digest("hex");
}

/** The default version name: `<sha>`, or `<sha>-dirty-<digest of the pushed folder>`. */
export function defaultVersionName(git: GitVersion, pushedDir: string): string {
  return git.dirty ? `${git.shortSha}-dirty-${folderDigest(pushedDir).slice(0, 8)}` : git.shortSha;
}

/** The default version message: the commit's subject, marked when the checkout is dirty. */
export function defaultVersionMessage(git: GitVersion): string {
  const subject = git.subject === "" ? `commit ${git.shortSha}` : git.subject;
  return git.dirty ? `${subject} (with uncommitted changes)` : subject;
}
