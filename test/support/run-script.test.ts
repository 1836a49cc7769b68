/**
 * runScript as an unprivileged user from a checkout that user cannot enter: a clone under
 * /root (mode 0700) run as root. The script runs from a copy, and the copy is removed.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runScript } from "./run-script";

const isRoot = process.getuid?.() === 0;
const NOBODY = { uid: 65534, gid: 65534 };

(isRoot ? test : test.skip)(
  `runs a script from a folder only root may enter, as another user${isRoot ? "" : " [skipped: needs root]"}`,
  async () => {
    const parent = mkdtempSync(join(tmpdir(), "private-checkout-"));
    try {
      chmodSync(parent, 0o700);
      const script = join(parent, "whoami.sh");
      writeFileSync(script, 'id -u\nprintf "%s\\n" "$(pwd)" "$0"\n');
      const run = await runScript({ script, env: { PATH: "/usr/bin:/bin" }, asUser: NOBODY });
      expect({ exitCode: run.exitCode, stderr: run.stderr }).toEqual({ exitCode: 0, stderr: "" });
      const [uid, cwd, copy] = run.stdout.trim().split("\n");
      expect(uid).toBe(String(NOBODY.uid));
      // Not the checkout: the user could not have entered it. The copy is gone afterwards.
      expect(cwd.startsWith(parent)).toBe(false);
      expect(copy).toMatch(/\/whoami\.sh$/);
      expect(copy.startsWith(parent)).toBe(false);
      expect(existsSync(copy)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  },
);

test("runs a script as the current user from where it is, without asUser", async () => {
  const dir = mkdtempSync(join(tmpdir(), "run-script-test-"));
  try {
    const script = join(dir, "say.sh");
    writeFileSync(script, 'printf "%s" "$0"\n');
    const run = await runScript({ script, env: { PATH: "/usr/bin:/bin" } });
    expect(run).toMatchObject({ exitCode: 0, stdout: script });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
