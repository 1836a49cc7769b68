import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { projectRoot } from "../../lib/core/project-root";
import { TEMPLATES } from "../../app/registry";

// `npm run synth` as a user runs it (transpile, then synthesize), on a PATH that holds
// only node: synthesis must not need Terraform, the network or anything else.
it("synthesizes every template with only node on PATH", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "synth-cmd-"));
  try {
    const bin = path.join(tmp, "bin");
    fs.mkdirSync(bin);
    fs.symlinkSync(process.execPath, path.join(bin, "node"));
    const outdir = path.join(tmp, "out");
    const run = spawnSync("node", ["scripts/synth.js"], {
      cwd: projectRoot(),
      env: { PATH: bin, HOME: tmp, CDKTF_OUTDIR: outdir },
      encoding: "utf8",
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    for (const t of TEMPLATES) {
      expect(run.stdout).toContain(`synthesized ${path.join(outdir, "stacks", t.id)}`);
      expect(fs.existsSync(path.join(outdir, "stacks", t.id, "cdk.tf.json"))).toBe(true);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// cdktf loads "archiver" at start only to zip ARCHIVE assets; the bundles carry a stub that
// fails loudly instead (scripts/bundle-stubs/archiver.js). The test above built the bundle.
it("bundles the archiver stub, not the package, and the stub names itself when used", () => {
  const bundle = fs.readFileSync(path.join(projectRoot(), "build", "synth.js"), "utf8");
  expect(bundle).toContain("scripts/bundle-stubs/archiver.js");
  expect(bundle).not.toMatch(/node_modules\/(cdktf\/node_modules\/)?archiver\//);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const archiver = require("../../scripts/bundle-stubs/archiver.js") as () => unknown;
  expect(() => archiver()).toThrow(/scripts\/bundle-stubs\/archiver\.js/);
  // The tests load cdktf with the same stub (jest.config.js moduleNameMapper).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  expect(require("archiver")).toBe(archiver);
});
