// Synthesizes every template as an earlier commit's own code wrote it: the commit's tree from
// `git archive` into `<dir>/tree`, this checkout's node_modules linked in, its bindings
// generated and its synth run. Used by the upgrade fixtures' regeneration
// (test/upgrade/states/regenerate.ts) and `node scripts/bench.js --apply-vs`.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "..");

/** Returns the folder of that commit's stacks (`<it>/<template>/`). */
export function synthAtCommit(
  commit: string,
  dir: string,
  options: { readonly quiet?: boolean } = {},
): string {
  const tree = path.join(dir, "tree");
  fs.mkdirSync(tree, { recursive: true });
  const archive = execFileSync("git", ["-C", root, "archive", commit], { maxBuffer: 1 << 30 });
  execFileSync("tar", ["-x", "-C", tree], { input: archive });
  fs.symlinkSync(path.join(root, "node_modules"), path.join(tree, "node_modules"));
  const out = path.join(tree, "out");
  const env = { ...process.env, CHECKPOINT_DISABLE: "1", CDKTF_OUTDIR: out };
  execFileSync("node", ["scripts/gen-providers.js"], { cwd: tree, env, stdio: "ignore" });
  execFileSync("node", ["scripts/synth.js"], {
    cwd: tree,
    env,
    stdio: options.quiet ? "ignore" : "inherit",
  });
  return path.join(out, "stacks");
}
