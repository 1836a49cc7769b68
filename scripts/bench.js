#!/usr/bin/env node
// Benchmark: how long synth, the plan harness and the test suite take on this
// machine. Prints a Markdown table (paste it into docs/performance.md).
//   node scripts/bench.js [--runs N] [--no-tests]
"use strict";
process.env.CHECKPOINT_DISABLE = "1";
const { execFileSync, spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
require("./register-ts");

const root = path.resolve(__dirname, "..");
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1]) || 5;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timeCommand(cmd, argv, before) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    if (before) before();
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, argv, { cwd: root, stdio: "ignore" });
    if (r.status !== 0) throw new Error(`${cmd} ${argv.join(" ")} failed (${r.status})`);
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return median(times);
}

async function timeAsync(fn) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return median(times);
}

async function main() {
  const rows = [];
  const rmBuild = () => fs.rmSync(path.join(root, "build"), { recursive: true, force: true });
  rows.push([
    "`npm run synth`, cold (no build/)",
    timeCommand("node", ["scripts/synth.js"], rmBuild),
  ]);
  rows.push(["`npm run synth`, warm", timeCommand("node", ["scripts/synth.js"])]);

  const { synthTemplates } = require("../templates/synth");
  const { TerraformHarness } = require("../test/harness");
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-"));
  const templates = synthTemplates({ outdir });
  const harness = await TerraformHarness.start();
  try {
    for (const t of templates) {
      const variables = JSON.parse(
        fs.readFileSync(path.join(root, "test", "support", "bench-variables.json"), "utf8"),
      )[t.id];
      rows.push([`${t.id}: terraform validate`, await timeAsync(() => harness.validate(t.dir))]);
      for (const startCount of [1, 0]) {
        rows.push([
          `${t.id}: plan + show, start_count ${startCount}`,
          await timeAsync(() => harness.plan(t.dir, { variables, workspace: { startCount } })),
        ]);
      }
    }
  } finally {
    await harness.stop();
    fs.rmSync(outdir, { recursive: true, force: true });
  }

  if (!args.includes("--no-tests")) {
    const t0 = process.hrtime.bigint();
    execFileSync("npx", ["jest", "--silent"], { cwd: root, stdio: "ignore" });
    rows.push(["`npm test` (whole suite, once)", Number(process.hrtime.bigint() - t0) / 1e9]);
  }

  const cpus = os.cpus();
  process.stdout.write(
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus.length} × ${cpus[0]?.model ?? "cpu"}, ` +
      `Node ${process.version}, median of ${runs} runs.\n\n| what | seconds |\n|---|---|\n` +
      rows.map(([k, v]) => `| ${k} | ${v.toFixed(2)} |`).join("\n") +
      "\n",
  );
}

main().catch((e) => {
  process.stderr.write(`bench failed: ${e.stack || e}\n`);
  process.exit(1);
});
