/**
 * seed-home.sh (the "seed-home" init container), run for real as an unprivileged user, as in
 * the pod: under root, a chmod 000 file would still be readable and prove nothing.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { runScript, ScriptRun, tempDirs, UnprivilegedUser } from "../support/run-script";
import { describeEachToolset, createImageSandbox, ImageToolset, scriptPath } from "./helpers";

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

/** The pod's remote user; any uid works, none needs to exist in /etc/passwd. */
const REMOTE_USER: UnprivilegedUser = { uid: 4242, gid: 4242 };
const isRoot = process.getuid?.() === 0;

interface SeedFixture {
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
