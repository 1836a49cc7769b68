/**
 * The saved states of test/upgrade/states/ are what regenerate.ts writes from STATES_COMMIT,
 * byte for byte: real applies of that release, not edited files. Needs the commit in this
 * clone's history (a shallow clone lacks it: the test says so and is skipped).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { projectRoot } from "../../lib/core/project-root";
import { STATES_COMMIT, stateFile } from "./states/state-cases";

jest.setTimeout(120_000);

const root = projectRoot();
const hasCommit =
  spawnSync("git", ["-C", root, "cat-file", "-e", `${STATES_COMMIT}^{commit}`]).status === 0;
const itWithCommit = hasCommit ? it : it.skip;
if (!hasCommit) {
  process.stderr.write(
    `release-states.test.ts: commit ${STATES_COMMIT} is not in this clone; skipping (fetch the full history to run it)\n`,
  );
}

itWithCommit(`regenerate.ts writes the kubernetes state of ${STATES_COMMIT} byte for byte`, () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "release-states-"));
  try {
    execFileSync(
      process.execPath,
      [
        path.join(root, "scripts", "ts.js"),
        path.join(__dirname, "states", "regenerate.ts"),
        "--only",
        "kubernetes",
        "--out",
        out,
      ],
      { cwd: root, stdio: "pipe", env: { ...process.env, CHECKPOINT_DISABLE: "1" } },
    );
    expect(fs.readdirSync(out)).toEqual(["kubernetes.tfstate.json"]);
    const written = fs.readFileSync(path.join(out, "kubernetes.tfstate.json"), "utf8");
    expect(written).toBe(fs.readFileSync(stateFile("kubernetes"), "utf8"));
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});
