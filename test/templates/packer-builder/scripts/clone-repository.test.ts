import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { SCRIPTS_DIR, ScriptSandbox, withAssignments } from "./script-sandbox";

const SCRIPT = join(SCRIPTS_DIR, "clone-repository.sh");
const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.test",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.test",
};

/** Runs git in `cwd` with a fixed identity and no user config (an empty `home`). */
const gitWithHome = (home: string, cwd: string, args: readonly string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...GIT_IDENTITY, HOME: home, GIT_CONFIG_NOSYSTEM: "1" },
  }).trim();

describe("clone-repository.sh (start script)", () => {
  /** Holds the upstream repository as every test starts from it: made once, copied per test. */
  let upstream: ScriptSandbox;
  let upstreamRepo: string;
  let box: ScriptSandbox;
  let source: string;
  let persistent: string;
  let target: string;
  let env: Record<string, string>;

  const git = (cwd: string, ...args: string[]) => gitWithHome(box.home, cwd, args);
  const commit = (file: string, content: string) => {
    writeFileSync(join(source, file), content);
    git(source, "add", file);
    git(source, "commit", "--quiet", "-m", `edit ${file}`);
    return git(source, "rev-parse", "HEAD");
  };

  beforeAll(() => {
    upstream = new ScriptSandbox();
    upstreamRepo = upstream.mkdir("ggl_core_infra");
    const git = (...args: string[]) => gitWithHome(upstream.home, upstreamRepo, args);
    git("init", "--quiet");
    git("symbolic-ref", "HEAD", "refs/heads/main");
    writeFileSync(join(upstreamRepo, "README.md"), "v1\n");
    git("add", "README.md");
    git("commit", "--quiet", "-m", "edit README.md");
  });
  afterAll(() => upstream.remove());

  beforeEach(() => {
    box = new ScriptSandbox();
    source = join(box.root, "upstream/ggl_core_infra");
    cpSync(upstreamRepo, source, { recursive: true, preserveTimestamps: true });
    persistent = box.mkdir("persistent");
    target = join(persistent, "ggl_core_infra");
    env = { CLONE_REPO_URL: `file://${source}`, CLONE_DIR: target };
  });
  afterEach(() => box.remove());

  it("clones once, marks the clone and links it into the home directory", () => {
    const run = box.run(SCRIPT, { env });
    expect(run.status).toBe(0);
    expect(readFileSync(join(target, "README.md"), "utf8")).toBe("v1\n");
    expect(existsSync(join(target, ".git/packer-builder-cloned"))).toBe(true);
    expect(readlinkSync(join(box.home, "ggl_core_infra"))).toBe(target);
    expect(readdirSync(persistent)).toEqual(["ggl_core_infra"]);
    expect(run.stderr).toContain(
      `clone: cloned ${git(source, "rev-parse", "--short", "HEAD")} into ${target}`,
    );
  });

  it("leaves a finished clone alone on every later start, local edits included", () => {
    const cloned = git(source, "rev-parse", "HEAD");
    expect(box.run(SCRIPT, { env }).status).toBe(0);
    writeFileSync(join(target, "README.md"), "my local edit\n");
    writeFileSync(join(target, "scratch.pkr.hcl"), "new file\n");
    commit("README.md", "v2 upstream\n");

    const rerun = box.run(SCRIPT, { env });
    expect(rerun.status).toBe(0);
    expect(rerun.stderr).toContain("was cloned before; leaving it as it is");
    expect(readFileSync(join(target, "README.md"), "utf8")).toBe("my local edit\n");
    expect(readFileSync(join(target, "scratch.pkr.hcl"), "utf8")).toBe("new file\n");
    expect(git(target, "rev-parse", "HEAD")).toBe(cloned);
  });

  it("recreates the home link on a fresh home", () => {
    expect(box.run(SCRIPT, { env }).status).toBe(0);
    const freshHome = box.mkdir("home2");
    const run = box.run(SCRIPT, { env: { ...env, HOME: freshHome } });
    expect(run.status).toBe(0);
    expect(readlinkSync(join(freshHome, "ggl_core_infra"))).toBe(target);
  });

  it("keeps a git repository it did not clone, and marks it", () => {
    git(box.mkdir("persistent/ggl_core_infra"), "init", "--quiet");
    const run = box.run(SCRIPT, { env });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("already a git repository; keeping it");
    expect(existsSync(join(target, ".git/packer-builder-cloned"))).toBe(true);
    expect(existsSync(join(target, "README.md"))).toBe(false);
  });

  it("refuses to clone over a directory that holds other files, and leaves them", () => {
    box.write("persistent/ggl_core_infra/notes.txt", "keep me\n");
    const run = box.run(SCRIPT, { env });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("exists and is not a git clone; left alone");
    expect(readdirSync(target)).toEqual(["notes.txt"]);
    expect(readFileSync(join(target, "notes.txt"), "utf8")).toBe("keep me\n");
  });

  it("clones into an existing empty directory and checks out the requested branch", () => {
    box.mkdir("persistent/ggl_core_infra");
    git(source, "checkout", "--quiet", "-b", "golden");
    commit("golden.txt", "g\n");
    git(source, "checkout", "--quiet", "main");
    const run = box.run(SCRIPT, { env: { ...env, CLONE_BRANCH: "golden" } });
    expect(run.status).toBe(0);
    expect(git(target, "rev-parse", "--abbrev-ref", "HEAD")).toBe("golden");
    expect(existsSync(join(target, "golden.txt"))).toBe(true);
  });

  it("throws away an unfinished clone from an earlier start and clones again", () => {
    box.write("persistent/.ggl_core_infra.clone-in-progress/.git/HEAD", "garbage");
    const run = box.run(SCRIPT, { env });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("removing an unfinished clone");
    expect(readdirSync(persistent)).toEqual(["ggl_core_infra"]);
    expect(readFileSync(join(target, "README.md"), "utf8")).toBe("v1\n");
  });

  // The AI task's module makes its workdir (the clone's target) from its own start script,
  // which the agent runs beside this one: `mv` then moved the clone inside it for good.
  it.each([
    ["empty", ""],
    ["holding a file", 'echo task > "$CLONE_DIR/.task-notes"'],
  ])("places the clone into a target another script made while git ran (%s)", (_case, write) => {
    box.fake(
      "git",
      `/usr/bin/git "$@" || exit $?\n[ "$1" = clone ] && mkdir -p "$CLONE_DIR"\n${write}\nexit 0`,
    );
    const first = box.run(SCRIPT, { env });
    expect(first.status).toBe(0);
    expect(readFileSync(join(target, "README.md"), "utf8")).toBe("v1\n");
    expect(existsSync(join(target, ".git", "packer-builder-cloned"))).toBe(true);
    expect(readdirSync(persistent)).toEqual(["ggl_core_infra"]);
    if (write !== "") {
      expect(readFileSync(join(target, ".task-notes"), "utf8")).toBe("task\n");
      expect(first.stderr).toContain("appeared while git cloned");
    }
    const again = box.run(SCRIPT, { env });
    expect(again.status).toBe(0);
    expect(again.stderr).toContain("was cloned before");
  });

  it("logs the repository URL without its query, where a token may sit", () => {
    box.fake("git", "exit 0");
    const run = box.run(SCRIPT, {
      env: { ...env, CLONE_REPO_URL: "https://git.example.test/r.git?access_token=SECRET#frag" },
    });
    expect(run.stderr).toContain("cloning https://git.example.test/r.git into");
    expect(run.stderr).not.toContain("SECRET");
  });

  it("fails a clone that cannot be fetched without leaving anything behind", () => {
    const run = box.run(SCRIPT, { env: { ...env, CLONE_REPO_URL: `file://${box.root}/nope` } });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("git clone failed");
    expect(run.stderr).toContain("the next start tries again");
    expect(readdirSync(persistent)).toEqual([]);
    expect(existsSync(join(box.home, "ggl_core_infra"))).toBe(false);
  });

  it("cuts a hanging clone after the injected timeout", () => {
    box.fake("git", "exec sleep 30");
    const run = box.run(SCRIPT, { env: { ...env, CLONE_TIMEOUT: "1" } });
    expect(run.status).toBe(1);
    expect(run.durationMs).toBeLessThan(5000);
    expect(run.stderr).toContain("git clone timed out after 1s");
    expect(readdirSync(persistent)).toEqual([]);
  });

  it.each([
    ["a password", "https://bob:s3cr3t-token@git.example.test/org/repo.git"],
    ["a token as user name", "https://s3cr3t-token@git.example.test/org/repo.git"],
    [
      "a token behind git's transport:: form",
      "https::https://s3cr3t-token@git.example.test/org/repo.git",
    ],
    ["a password behind git's transport:: form", "ext::ssh://bob:s3cr3t-token@git.example.test/r"],
  ])("refuses a URL that carries %s, without printing it", (_what, url) => {
    box.fake("git");
    const run = box.run(SCRIPT, { env: { ...env, CLONE_REPO_URL: url } });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("the repository URL carries credentials");
    expect(run.stdout + run.stderr).not.toContain("s3cr3t-token");
    expect(box.callsOf("git")).toEqual([]);
  });

  it("does nothing without a repository URL", () => {
    const run = box.run(SCRIPT, { env: { ...env, CLONE_REPO_URL: "" } });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("nothing to clone");
    expect(readdirSync(persistent)).toEqual([]);
  });

  it("hands a token to git through GIT_ASKPASS only, also when embedded as assignments", () => {
    // A git that answers its own credential prompts like real git over HTTPS would,
    // then clones the local repository instead of the (unreachable) HTTPS one.
    const answers = join(box.root, "askpass-answers");
    box.fake(
      "git",
      `if [[ $1 == clone ]]; then
  { "$GIT_ASKPASS" "Username for 'https://git.example.test': "
    "$GIT_ASKPASS" "Password for 'https://oauth2@git.example.test': "
    echo "prompt=$GIT_TERMINAL_PROMPT"; } >'${answers}'
  set -- "\${@/https:\\/\\/git.example.test\\/org\\/ggl_core_infra.git/file://${source}}"
fi
exec /usr/bin/git "$@"`,
    );
    const token = "glpat-Sup3rS3cret";
    const embedded = box.write(
      "clone-embedded.sh",
      withAssignments(SCRIPT, {
        CLONE_REPO_URL: "https://git.example.test/org/ggl_core_infra.git",
        CLONE_DIR: target,
        CLONE_GIT_TOKEN: token,
      }),
    );
    const run = box.run(embedded);
    expect(run.status).toBe(0);
    expect(readFileSync(answers, "utf8")).toBe(`oauth2\n${token}\nprompt=0\n`);
    const argvs = box.callsOf("git").flat().join(" ");
    expect(argvs).toContain("clone");
    expect(argvs).not.toContain(token);
    expect(run.stdout + run.stderr).not.toContain(token);
    expect(readFileSync(join(target, ".git/config"), "utf8")).not.toContain(token);
    // The throwaway helper is gone and never held the token.
    expect(readdirSync(box.tmp)).toEqual([]);
  });
});
