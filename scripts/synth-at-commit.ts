// Synthesizes every template as an earlier commit's own code wrote it: the commit's tree from
// `git archive` into `<dir>/tree`, this checkout's node_modules linked in, its bindings
// generated and its synth run. Used by the upgrade fixtures' regeneration
// (test/upgrade/states/regenerate.ts) and `node scripts/bench.js --apply-vs`.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { rememberConfiguration } from "../lib/private/stack-configuration";

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
  const stacks = path.join(out, "stacks");
  rememberModels(tree, out, stacks);
  return stacks;
}

/**
 * A commit that writes its variables and modules to main.tf (lib/private/stack-configuration.ts)
 * gives its folders' whole configurations to this process, as its synth returned them: the
 * plan harness and the benchmark read them from here (they parse no HCL). Its synth runs
 * once more, in its own tree, to hand them over; earlier commits keep them in cdk.tf.json.
 */
function rememberModels(tree: string, out: string, stacks: string): void {
  if (!fs.existsSync(path.join(tree, "lib", "private", "stack-configuration.ts"))) return;
  const models = path.join(out, "models");
  const dump =
    'require("./scripts/ts").register();' +
    'const fs = require("fs"), path = require("path");' +
    `fs.mkdirSync(${JSON.stringify(models)}, { recursive: true });` +
    `for (const t of require("./app/synth").synthTemplates({ outdir: ${JSON.stringify(out)} }))` +
    `  fs.writeFileSync(path.join(${JSON.stringify(models)}, t.id + ".json"), JSON.stringify(t.model));`;
  execFileSync("node", ["-e", dump], { cwd: tree, stdio: "ignore" });
  for (const file of fs.readdirSync(models)) {
    const model = JSON.parse(fs.readFileSync(path.join(models, file), "utf8")) as Record<
      string,
      unknown
    >;
    rememberConfiguration(path.join(stacks, path.basename(file, ".json")), model);
  }
}
