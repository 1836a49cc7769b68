/**
 * seed-home.sh (the "seed-home" init container), run for real as an unprivileged user, as in
 * the pod: under root, a chmod 000 file would still be readable and prove nothing.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import {
  hostTool,
  runScript,
  ScriptRun,
  shellQuote,
  tempDirs,
  UnprivilegedUser,
  writeFakeExecutable,
} from "../../../support/run-script";
import {
  createImageSandbox,
  describeEachToolset,
  describeEachShell,
  ImageSandbox,
  ImageToolset,
  scriptPath,
} from "./helpers";

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

/** The pod's remote user; any uid works, none needs to exist in /etc/passwd. */
const REMOTE_USER: UnprivilegedUser = { uid: 4242, gid: 4242 };
const isRoot = process.getuid?.() === 0;

interface SeedFixture {
  readonly sandbox: ImageSandbox;
  /** The home as the image ships it (owned by root, like files baked into an image). */
  readonly imageHome: string;
  /** Stands in for the PVC mounted at /mnt/data. */
  readonly data: string;
  run(env?: Readonly<Record<string, string>>): Promise<ScriptRun>;
}

function createSeedFixture(toolset: ImageToolset): SeedFixture {
  const sandbox = createImageSandbox(dirs, { withGit: false, toolset });
  const imageHome = join(sandbox.root, "image", "home", "vscode");
  mkdirSync(join(imageHome, ".config", "tool"), { recursive: true });
  // .cache also holds a mount point (home/.cache/pip), created before the copy.
  mkdirSync(join(imageHome, ".cache", "tool"), { recursive: true });
  writeFileSync(join(imageHome, ".cache", "tool", "index.db"), "cached\n");
  writeFileSync(join(imageHome, ".bashrc"), "export FROM_IMAGE=1\n");
  writeFileSync(join(imageHome, ".profile"), "image profile\n");
  writeFileSync(join(imageHome, ".config", "tool", "settings.ini"), "[tool]\n");
  writeFileSync(join(imageHome, "secret.key"), "not for the remote user\n");
  chmodSync(join(imageHome, "secret.key"), 0o000);
  const data = join(sandbox.root, "data");
  mkdirSync(data);
  // In the pod, fsGroup makes the volume writable for the remote user.
  if (isRoot) chownSync(data, REMOTE_USER.uid, REMOTE_USER.gid);
  return {
    sandbox,
    imageHome,
    data,
    run(env = {}) {
      return runScript({
        script: scriptPath("seed-home.sh"),
        env: sandbox.env({
          HOME_DIR: imageHome,
          VOLUME_DIRS: "volumes/node-modules volumes/anonymous-3",
          MOUNT_POINT_DIRS: "workspace-folder workspaces/app/node_modules home/.cache/pip",
          SEED_DATA_DIR: data,
          ...env,
        }),
        shell: sandbox.shell,
        asUser: REMOTE_USER,
      });
    },
  };
}

describeEachToolset("seed-home.sh with %s tools", (toolset) => {
  test("first start: copies the image's home, skips an unreadable file with a warning, never fails", async () => {
    const seed = createSeedFixture(toolset);
    // Already on the volume before seeding (e.g. a leftover): never overwritten.
    mkdirSync(join(seed.data, "home"));
    if (isRoot) chownSync(join(seed.data, "home"), REMOTE_USER.uid, REMOTE_USER.gid);
    writeFileSync(join(seed.data, "home", ".profile"), "mine\n");
    if (isRoot) chownSync(join(seed.data, "home", ".profile"), REMOTE_USER.uid, REMOTE_USER.gid);

    const run = await seed.run();

    expect(run.exitCode).toBe(0);
    const home = join(seed.data, "home");
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("export FROM_IMAGE=1\n");
    expect(readFileSync(join(home, ".config", "tool", "settings.ini"), "utf8")).toBe("[tool]\n");
    expect(readFileSync(join(home, ".profile"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(home, ".cache", "tool", "index.db"), "utf8")).toBe("cached\n");
    expect(statSync(join(home, ".cache", "pip")).isDirectory()).toBe(true);
    expect(existsSync(join(home, "secret.key"))).toBe(false);
    expect(run.output).toMatch(/warning: some files .* were skipped/);
    expect(run.output).toContain("secret.key");
    expect(existsSync(join(home, ".devcontainer-home-seeded"))).toBe(true);
  });

  test("pre-creates every mount point on the volume as the remote user", async () => {
    const seed = createSeedFixture(toolset);
    const run = await seed.run();
    expect(run.exitCode).toBe(0);
    for (const dir of [
      "home",
      "workspaces",
      "workspace-folder",
      "volumes/node-modules",
      "volumes/anonymous-3",
      "workspaces/app/node_modules",
      "home/.cache/pip",
    ]) {
      const stat = statSync(join(seed.data, dir));
      expect(stat.isDirectory()).toBe(true);
      if (isRoot) expect([dir, stat.uid]).toEqual([dir, REMOTE_USER.uid]);
    }
  });

  test("a second start never seeds again, but still creates new mount points", async () => {
    const seed = createSeedFixture(toolset);
    expect((await seed.run()).exitCode).toBe(0);
    const home = join(seed.data, "home");
    // The user edits one seeded file and deletes another; the image changes on a rebuild.
    writeFileSync(join(home, ".bashrc"), "export MINE=1\n");
    rmSync(join(home, ".config"), { recursive: true });
    chmodSync(join(seed.imageHome, "secret.key"), 0o644);
    writeFileSync(join(seed.imageHome, ".bashrc"), "export FROM_NEW_IMAGE=1\n");
    writeFileSync(join(seed.imageHome, ".new-in-image"), "new\n");

    const run = await seed.run({ MOUNT_POINT_DIRS: "home/.local/share/added" });

    expect(run.exitCode).toBe(0);
    expect(run.output).toMatch(/seeded on an earlier start/);
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("export MINE=1\n");
    expect(existsSync(join(home, ".config"))).toBe(false);
    expect(existsSync(join(home, ".new-in-image"))).toBe(false);
    expect(existsSync(join(home, "secret.key"))).toBe(false);
    expect(statSync(join(home, ".local", "share", "added")).isDirectory()).toBe(true);
  });

  test("an image without the home directory starts with an empty home", async () => {
    const seed = createSeedFixture(toolset);
    const run = await seed.run({ HOME_DIR: "/nonexistent/home/dev" });
    expect(run.exitCode).toBe(0);
    expect(run.output).toMatch(/home starts empty/);
    expect(existsSync(join(seed.data, "home", ".devcontainer-home-seeded"))).toBe(true);
  });

  test("list entries that would leave the volume are ignored with a warning", async () => {
    const seed = createSeedFixture(toolset);
    const run = await seed.run({ MOUNT_POINT_DIRS: "../escaped /absolute home/ok" });
    expect(run.exitCode).toBe(0);
    expect(run.output).toMatch(/ignoring '\.\.\/escaped'/);
    expect(run.output).toMatch(/ignoring '\/absolute'/);
    expect(existsSync(join(seed.data, "..", "escaped"))).toBe(false);
    expect(statSync(join(seed.data, "home", "ok")).isDirectory()).toBe(true);
  });
});

/** Writes `content` to `file` (and its directories) on the volume, owned by the remote user. */
function writeAsUser(file: string, content: string): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, content);
  if (isRoot) {
    chownSync(join(file, ".."), REMOTE_USER.uid, REMOTE_USER.gid);
    chownSync(file, REMOTE_USER.uid, REMOTE_USER.gid);
  }
}

/** Every path under `dir`, relative, with its content ("dir", "-> target" or the text). */
function treeOf(dir: string): Record<string, string> {
  const tree: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const stat = lstatSync(path);
      const key = relative(dir, path);
      if (stat.isSymbolicLink()) tree[key] = `-> ${readlinkSync(path)}`;
      else if (stat.isDirectory()) {
        tree[key] = "dir";
        walk(path);
      } else tree[key] = (stat.mode & 0o444) === 0 ? "(unreadable)" : readFileSync(path, "utf8");
    }
  };
  walk(dir);
  return tree;
}

/**
 * A cp that, at its call number $KILL_AT_COPY of a run, writes the first bytes of every file
 * it was to copy and then kills the script and itself, as a pod stop or eviction does;
 * every other call is the image's own cp. Calls are counted in `state`/calls.
 */
function installDyingCp(seed: SeedFixture): { reset(): void } {
  const state = join(seed.sandbox.root, "cp-state");
  mkdirSync(state);
  chmodSync(state, 0o777);
  const calls = join(state, "calls");
  const head = shellQuote(hostTool("head"));
  const realCp = shellQuote(join(seed.sandbox.toolBin, "cp"));
  writeFakeExecutable(
    seed.sandbox.fakeBin,
    "cp",
    [
      `n=0; [ ! -e ${shellQuote(calls)} ] || read -r n < ${shellQuote(calls)}; n=$((n + 1))`,
      `echo "$n" > ${shellQuote(calls)}`,
      'if [ "$n" = "${KILL_AT_COPY-}" ]; then',
      '  src=; dest=; for arg in "$@"; do src=$dest; dest=$arg; done',
      '  if [ -d "$src" ]; then',
      `    ${realCp} -R -p "$src" "$dest" 2>/dev/null`,
      '    find "$dest" -type f | while IFS= read -r f; do',
      `      ${head} -c 3 "$f" > "$f.cut" && mv "$f.cut" "$f"`,
      "    done",
      "  else",
      `    ${head} -c 3 "$src" > "$dest"`,
      "  fi",
      '  kill -KILL "$PPID"; kill -KILL $$',
      "fi",
      `exec ${realCp} "$@"`,
    ].join("\n"),
  );
  return { reset: () => rmSync(calls, { force: true }) };
}

/**
 * What the volume's home must hold after a completed seed over the user's own .profile, plus
 * `extra` (paths the test put on the volume itself).
 */
function expectSeededHome(seed: SeedFixture, extra: Readonly<Record<string, string>> = {}): void {
  const home = join(seed.data, "home");
  const expected = treeOf(seed.imageHome);
  // Unreadable for the remote user: skipped.
  for (const [path, content] of Object.entries(expected))
    if (content === "(unreadable)") delete expected[path];
  expected[".profile"] = "mine\n"; // the user's, never overwritten
  expected[".cache/pip"] = "dir"; // a mount point
  expected[".devcontainer-home-seeded"] = ""; // the script's own marker, never the image's
  expect(treeOf(home)).toEqual({ ...expected, ...extra });
}

/** Makes everything under the fixture writable again, so that it can be cleaned up. */
function makeWritable(seed: SeedFixture): void {
  execFileSync("chmod", ["-R", "u+w", seed.sandbox.root]);
}

/**
 * Runs a start stopped during its copy number `step`, then a start that must complete the
 * home; returns false when that start had fewer copies than `step` (nothing was stopped).
 */
async function stopThenComplete(
  seed: SeedFixture,
  step: number,
  extra: Readonly<Record<string, string>> = {},
): Promise<boolean> {
  const cp = installDyingCp(seed);
  const stopped = await seed.run({ KILL_AT_COPY: String(step) });
  if (stopped.exitCode === 0) return false;
  expect([step, stopped.signal]).toEqual([step, "SIGKILL"]);
  cp.reset();
  const next = await seed.run();
  expect([step, next.exitCode]).toEqual([step, 0]);
  expectSeededHome(seed, extra);
  return true;
}

describeEachToolset("seed-home.sh with %s tools: a stopped copy", (toolset) => {
  test("a start stopped during any copy leaves no half-written file: the next start completes the home", async () => {
    let kills = 0;
    for (let step = 1; step < 20; step++) {
      const seed = createSeedFixture(toolset);
      writeAsUser(join(seed.data, "home", ".profile"), "mine\n");
      const cp = installDyingCp(seed);

      const stopped = await seed.run({ KILL_AT_COPY: String(step) });
      if (stopped.exitCode === 0) break; // fewer copies than `step`: every step was tried
      expect([step, stopped.signal]).toEqual([step, "SIGKILL"]);
      kills++;
      expect(existsSync(join(seed.data, "home", ".devcontainer-home-seeded"))).toBe(false);

      cp.reset();
      const next = await seed.run();

      expect([step, next.exitCode]).toEqual([step, 0]);
      expectSeededHome(seed);
    }
    // secret.key, .bashrc, .cache/tool and .config: each copy was cut short once.
    expect(kills).toBe(4);
  });
});

describeEachShell("seed-home.sh with %s: nothing is lost or half-written", (toolset) => {
  test("starts that are each stopped during their second copy still get there, one entry per start", async () => {
    const seed = createSeedFixture(toolset);
    writeAsUser(join(seed.data, "home", ".profile"), "mine\n");
    // Else the copy that lands on each start would be that of the unreadable file, every time.
    chmodSync(join(seed.imageHome, "secret.key"), 0o644);
    const cp = installDyingCp(seed);
    let starts = 0;
    let run: ScriptRun;
    do {
      cp.reset();
      run = await seed.run({ KILL_AT_COPY: "2" });
      starts++;
    } while (run.signal === "SIGKILL" && starts < 10);
    expect(run.exitCode).toBe(0);
    // Four entries to copy: three starts stopped, the fourth completes.
    expect(starts).toBe(4);
    expectSeededHome(seed);
  });

  test("a stopped copy of a read-only tree (0555, like Go's module cache) is removed whole; the next start copies it afresh", async () => {
    let kills = 0;
    for (let step = 1; step < 20; step++) {
      const seed = createSeedFixture(toolset);
      writeAsUser(join(seed.data, "home", ".profile"), "mine\n");
      const ro = join(seed.imageHome, ".config", "ro");
      mkdirSync(ro);
      writeFileSync(join(ro, "x"), "read-only content\n");
      chmodSync(ro, 0o555);
      writeFileSync(join(seed.imageHome, ".config", "big"), "a large file\n");
      try {
        if (!(await stopThenComplete(seed, step))) break;
        kills++;
        expect(existsSync(join(seed.data, "home", ".config", ".config"))).toBe(false);
      } finally {
        makeWritable(seed);
      }
    }
    expect(kills).toBe(4);
  });

  // Copied, the image's marker would tell a start stopped right after it that the home is
  // complete; its content shows whether it was copied.
  test("a directory copy cut short by a full volume keeps no cut-short or empty file: what fits is copied whole, the rest is left out with a warning", async () => {
    const seed = createSeedFixture(toolset);
    chmodSync(join(seed.imageHome, "secret.key"), 0o644);
    writeFileSync(join(seed.imageHome, ".config", "tool", "big.db"), "x".repeat(4096));
    // A full volume as cp meets it: the copy of .config writes big.db cut short and
    // settings.ini empty (BusyBox's cp), then fails; copied alone, big.db still does not fit.
    const realCp = shellQuote(join(seed.sandbox.toolBin, "cp"));
    writeFakeExecutable(
      seed.sandbox.fakeBin,
      "cp",
      [
        'src=; dest=; for arg in "$@"; do src=$dest; dest=$arg; done',
        "case $src in",
        "  */.config)",
        `    ${realCp} -R -p "$src" "$dest"`,
        '    printf xxx > "$dest/tool/big.db"; : > "$dest/tool/settings.ini"',
        '    echo "cp: write error: No space left on device" >&2; exit 1 ;;',
        '  */big.db) printf xxx > "$dest"; echo "cp: No space left on device" >&2; exit 1 ;;',
        "esac",
        `exec ${realCp} "$@"`,
      ].join("\n"),
    );

    const run = await seed.run();

    expect(run.exitCode).toBe(0);
    expect(run.output).toMatch(
      /\.config\/tool\/big\.db could not be copied whole .*; it is not seeded/,
    );
    const home = join(seed.data, "home");
    expect(existsSync(join(home, ".devcontainer-home-seeded"))).toBe(true);
    const expected = treeOf(seed.imageHome);
    delete expected[".config/tool/big.db"];
    expect(treeOf(home)).toEqual({
      ...expected,
      ".cache/pip": "dir",
      ".devcontainer-home-seeded": "",
    });
  });

  test("an image file named like the marker is not copied: only the script writes the marker", async () => {
    const seed = createSeedFixture(toolset);
    writeAsUser(join(seed.data, "home", ".profile"), "mine\n");
    writeFileSync(join(seed.imageHome, ".devcontainer-home-seeded"), "from another home\n");
    writeFileSync(join(seed.imageHome, ".zshrc"), "zsh\n");
    const run = await seed.run();
    expect(run.exitCode).toBe(0);
    expectSeededHome(seed);
  });

  (isRoot ? test : test.skip)(
    `a leftover temporary the user cannot remove is left with a warning and never copied into${isRoot ? "" : " [skipped: needs root, to leave a directory the user cannot remove]"}`,
    async () => {
      const seed = createSeedFixture(toolset);
      writeAsUser(join(seed.data, "home", ".profile"), "mine\n");
      // Left by a stop, holding a directory of root's (a later `sudo` in the workspace).
      const leftover = join(seed.data, "home", ".devcontainer-home-seed.partial");
      writeAsUser(join(leftover, "mine-too"), "cut\n");
      mkdirSync(join(leftover, "locked"));
      writeFileSync(join(leftover, "locked", "file"), "root's\n");

      const run = await seed.run();

      expect(run.exitCode).toBe(0);
      expect(run.output).toMatch(/warning: cannot remove these leftover temporaries.*\.partial/);
      expectSeededHome(seed, {
        ".devcontainer-home-seed.partial": "dir",
        ".devcontainer-home-seed.partial/locked": "dir",
        ".devcontainer-home-seed.partial/locked/file": "root's\n",
      });
      expect(readdirSync(join(seed.data, "home")).filter((n) => n.includes("partial"))).toEqual([
        ".devcontainer-home-seed.partial",
      ]);
    },
  );

  test("a mount point behind a symbolic link or a file is left alone with a warning; the pod starts", async () => {
    const seed = createSeedFixture(toolset);
    // The user replaced the app folder by a link that is dangling here, ~/.cache by a link,
    // and put a file where a volume's directory goes.
    mkdirSync(join(seed.data, "workspaces"));
    symlinkSync("/workspaces/elsewhere", join(seed.data, "workspaces", "app"));
    writeAsUser(join(seed.data, "home", ".profile"), "mine\n");
    symlinkSync("/nonexistent/cache", join(seed.data, "home", ".cache"));
    writeAsUser(join(seed.data, "volumes", "node-modules"), "a file\n");
    const before = treeOf(seed.data);

    const first = await seed.run();
    const second = await seed.run();

    for (const run of [first, second]) {
      expect(run.exitCode).toBe(0);
      expect(run.output).toMatch(
        /warning: cannot create 'workspaces\/app\/node_modules' on the volume: workspaces\/app is a symbolic link/,
      );
      expect(run.output).toMatch(/'home\/\.cache\/pip' .*: home\/\.cache is a symbolic link/);
      expect(run.output).toMatch(
        /'volumes\/node-modules' .*: volumes\/node-modules is not a directory/,
      );
    }
    const after = treeOf(seed.data);
    for (const [path, content] of Object.entries(before))
      expect([path, after[path]]).toEqual([path, content]);
    expect(statSync(join(seed.data, "volumes", "anonymous-3")).isDirectory()).toBe(true);
    expect(readFileSync(join(seed.data, "home", ".bashrc"), "utf8")).toBe("export FROM_IMAGE=1\n");
    expect(existsSync(join(seed.data, "home", ".devcontainer-home-seeded"))).toBe(true);
  });
});

/** A volume over an image directory: the Rust image's /usr/local/cargo under a cache volume. */
interface VolumeFixture {
  readonly seed: SeedFixture;
  /** What the image has at the volume's target. */
  readonly imageDir: string;
  /** The volume's directory on the PVC. */
  readonly volume: string;
  /** The markers beside the volumes. */
  readonly seeded: string;
  readonly seeding: string;
  run(env?: Readonly<Record<string, string>>): Promise<ScriptRun>;
}

function createVolumeFixture(toolset: ImageToolset): VolumeFixture {
  const seed = createSeedFixture(toolset);
  // The home was seeded on an earlier start: only the volume's copies happen.
  writeAsUser(join(seed.data, "home", ".devcontainer-home-seeded"), "");
  const imageDir = join(seed.sandbox.root, "image", "usr", "local", "cargo");
  mkdirSync(join(imageDir, "bin"), { recursive: true });
  writeFileSync(join(imageDir, "bin", "cargo"), "#!/bin/sh\necho cargo\n");
  writeFileSync(join(imageDir, "bin", "rustc"), "#!/bin/sh\necho rustc\n");
  chmodSync(join(imageDir, "bin", "cargo"), 0o755);
  mkdirSync(join(imageDir, "registry", "index"), { recursive: true });
  writeFileSync(join(imageDir, "registry", "index", "config.json"), "{}\n");
  writeFileSync(join(imageDir, "env"), "export PATH=/usr/local/cargo/bin:$PATH\n");
  writeFileSync(join(imageDir, ".package-cache"), "");
  return {
    seed,
    imageDir,
    volume: join(seed.data, "volumes", "cargo-cache"),
    seeded: join(seed.data, "volumes", ".devcontainer-seeded", "cargo-cache"),
    seeding: join(seed.data, "volumes", ".devcontainer-seeding", "cargo-cache"),
    run(env = {}) {
      return seed.run({
        VOLUME_DIRS: "volumes/cargo-cache volumes/empty",
        MOUNT_POINT_DIRS: "",
        SEED_VOLUMES: `volumes/cargo-cache=${imageDir}`,
        ...env,
      });
    },
  };
}

/** Gives everything on the volume to the remote user, as fsGroup and the user's own writes do. */
function giveToUser(v: VolumeFixture): void {
  if (isRoot) execFileSync("chown", ["-R", `${REMOTE_USER.uid}:${REMOTE_USER.gid}`, v.seed.data]);
}

/** The volume holds exactly the image's content at its target (the markers live elsewhere). */
function expectSeededVolume(v: VolumeFixture, step?: number): void {
  expect([step, treeOf(v.volume)]).toEqual([step, treeOf(v.imageDir)]);
  expect([step, existsSync(v.seeded), existsSync(v.seeding)]).toEqual([step, true, false]);
}

describeEachShell(
  "seed-home.sh with %s: volumes are seeded from the image on first use",
  (toolset) => {
    test("a new, empty volume gets the image's content at its target; the markers stay out of it", async () => {
      const v = createVolumeFixture(toolset);
      const run = await v.run();
      expect(run.exitCode).toBe(0);
      expect(run.output).toMatch(/first use of volume cargo-cache: copying/);
      expectSeededVolume(v);
      expect(readFileSync(join(v.volume, "bin", "cargo"), "utf8")).toContain("echo cargo");
      expect(statSync(join(v.volume, "bin", "cargo")).mode & 0o111).not.toBe(0);
      // The home was not seeded again.
      expect(existsSync(join(v.seed.data, "home", ".bashrc"))).toBe(false);
    });

    test("a seeded volume is never touched again, whatever the user or a rebuilt image does", async () => {
      const v = createVolumeFixture(toolset);
      expect((await v.run()).exitCode).toBe(0);
      rmSync(join(v.volume, "bin", "rustc"));
      writeAsUser(join(v.volume, "registry", "mine"), "downloaded\n");
      writeFileSync(join(v.imageDir, "bin", "cargo-new"), "new\n");
      writeFileSync(join(v.imageDir, "env"), "changed\n");
      const before = treeOf(v.volume);

      const run = await v.run();

      expect(run.exitCode).toBe(0);
      expect(run.output).toMatch(/volume cargo-cache was seeded on an earlier start/);
      expect(treeOf(v.volume)).toEqual(before);
    });

    test("an image with nothing at the target leaves the volume empty, unmarked: a rebuilt image that has content seeds it while it is still empty", async () => {
      const v = createVolumeFixture(toolset);
      const emptyTarget = join(v.seed.sandbox.root, "image", "nothing-here");
      const first = await v.run({ SEED_VOLUMES: `volumes/cargo-cache=${emptyTarget}` });
      expect(first.exitCode).toBe(0);
      expect(first.output).toMatch(
        /the image has nothing at .*nothing-here; volume cargo-cache starts empty/,
      );
      expect(readdirSync(v.volume)).toEqual([]);
      expect(existsSync(v.seeded)).toBe(false);

      mkdirSync(emptyTarget);
      const stillEmpty = await v.run({ SEED_VOLUMES: `volumes/cargo-cache=${emptyTarget}` });
      expect(stillEmpty.exitCode).toBe(0);
      expect(existsSync(v.seeded)).toBe(false);

      const rebuilt = await v.run();
      expect(rebuilt.exitCode).toBe(0);
      expectSeededVolume(v);
    });

    test("a volume that already holds files without a marker (a template version before seeding) is left as it is", async () => {
      const v = createVolumeFixture(toolset);
      writeAsUser(join(v.volume, "registry", "cache", "crate-1.0.crate"), "the user's\n");
      giveToUser(v);
      const before = treeOf(v.volume);
      const run = await v.run();
      expect(run.exitCode).toBe(0);
      expect(run.output).toMatch(/volume cargo-cache already holds files; not seeding it/);
      expect(treeOf(v.volume)).toEqual(before);
      expect(existsSync(v.seeded)).toBe(true);
    });

    test("a start stopped during any copy leaves no half-written file: the next start completes the volume", async () => {
      let kills = 0;
      for (let step = 1; step < 20; step++) {
        const v = createVolumeFixture(toolset);
        const cp = installDyingCp(v.seed);
        const stopped = await v.run({ KILL_AT_COPY: String(step) });
        if (stopped.exitCode === 0) break; // fewer copies than `step`: every step was tried
        expect([step, stopped.signal]).toEqual([step, "SIGKILL"]);
        kills++;
        expect([step, existsSync(v.seeded), existsSync(v.seeding)]).toEqual([step, false, true]);
        // Whatever is under its real name was copied whole.
        for (const [path, content] of Object.entries(treeOf(v.volume))) {
          if (path.includes(".devcontainer-home-seed.partial")) continue;
          expect([step, path, content]).toEqual([step, path, treeOf(v.imageDir)[path]]);
        }
        cp.reset();
        const next = await v.run();
        expect([step, next.exitCode]).toEqual([step, 0]);
        expect(next.output).toMatch(/finishing the seed a stopped start began/);
        expectSeededVolume(v, step);
      }
      // .package-cache, bin, env and registry: each copy was cut short once.
      expect(kills).toBe(4);
    });

    test("starts that are each stopped during their second copy still get there, one entry per start", async () => {
      const v = createVolumeFixture(toolset);
      const cp = installDyingCp(v.seed);
      let starts = 0;
      let run: ScriptRun;
      do {
        cp.reset();
        run = await v.run({ KILL_AT_COPY: "2" });
        starts++;
      } while (run.signal === "SIGKILL" && starts < 10);
      expect(run.exitCode).toBe(0);
      expect(starts).toBe(4);
      expectSeededVolume(v);
    });

    test("a start stopped right after it began the seed, or after the copies but before its marker, is finished by the next", async () => {
      for (const copiedAlready of [false, true]) {
        const v = createVolumeFixture(toolset);
        mkdirSync(join(v.seed.data, "volumes", "cargo-cache"), { recursive: true });
        if (copiedAlready) execFileSync("cp", ["-R", "-p", `${v.imageDir}/.`, v.volume]);
        writeAsUser(v.seeding, "");
        giveToUser(v);
        const run = await v.run();
        expect([copiedAlready, run.exitCode]).toEqual([copiedAlready, 0]);
        expectSeededVolume(v);
      }
    });

    test("entries that are no <volume dir>=<absolute target> are ignored with a warning", async () => {
      const v = createVolumeFixture(toolset);
      const run = await v.run({
        SEED_VOLUMES: `home=${v.imageDir} volumes/a/b=${v.imageDir} volumes/x=relative volumes/y volumes/z=/a/../b`,
      });
      expect(run.exitCode).toBe(0);
      for (const entry of [
        "home=",
        "volumes/a/b=",
        "volumes/x=relative",
        "volumes/y'",
        "volumes/z=",
      ])
        expect(run.output).toContain(`ignoring '${entry}`);
      expect(readdirSync(v.volume)).toEqual([]);
    });
  },
);
