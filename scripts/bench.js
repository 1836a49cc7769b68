#!/usr/bin/env node
// Benchmark: how long synth (ours against the cdktf CLI's), the plan harness and the
// test suite take on this machine. Prints a Markdown table for docs/performance.md.
//   node scripts/bench.js [--runs N] [--no-tests]      (synth rows always use >= 5 runs)
//   node scripts/bench.js --tests-only                 (only the `npm test` rows)
//   node scripts/bench.js --list-plan-tests            (the test files counted as plan tests)
//   node scripts/bench.js --machinery [--sample N]     (what each speed-up saves: a sample of
//                                                       every Nth test file, once with all of
//                                                       them and once without each; synth
//                                                       with and without creation stacks)
//   node scripts/bench.js --upgrade-only               (only the plan-upgrade rows)
//   node scripts/bench.js --hostile-files              (only the worst-devcontainer.json rows)
//   node scripts/bench.js --hostile-files --only A,B   (only those hostile files, each its row)
//   node scripts/bench.js --apply-vs [REV]             (a devcontainer workspace's builds with
//                                                       today's template against REV's,
//                                                       default ce71965, side by side)
//   node scripts/bench.js --apply-breakdown            (what a first start pays for: today's
//                                                       template against copies without its
//                                                       modules, checks or validations)
//   node scripts/bench.js --first-start [REV]          (a start from a fresh workdir, init +
//                                                       plan, with today's devcontainer template
//                                                       against REV's, default 2a749b1, on the
//                                                       tests' 54 cases; --cases N: the first N)
//   node scripts/bench.js --first-start-vs-dir DIR     (the same against an operator's template
//                                                       folder DIR, e.g. their HCL template)
"use strict";
process.env.CHECKPOINT_DISABLE = "1";
const { execFileSync, spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
require("./ts").register();
// The plan harness reads a template's variables and module calls (in main.tf) from synth.
require("../app/harness-configuration").useStackConfigurations();

const root = path.resolve(__dirname, "..");
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1]) || 5;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timeCommand(cmd, argv, before, count = runs) {
  const times = [];
  for (let i = 0; i < count; i++) {
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

/** Every test file. */
function allTestFiles() {
  const found = [];
  (function walk(dir) {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (f.endsWith(".test.ts")) found.push(path.relative(root, f));
    }
  })(path.join(root, "test"));
  (function walkPackage(dir) {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walkPackage(f);
      else if (f.endsWith(".test.ts")) found.push(path.relative(root, f));
    }
  })(path.join(root, "packages/terraform-harness", "test"));
  return found.sort();
}

/** Relative imports of a TypeScript file, resolved to files. */
function relativeImports(file) {
  const text = fs.readFileSync(file, "utf8");
  const found = [];
  const harness = "@coder-cdktf/terraform-harness";
  for (const m of text.matchAll(
    /(?:from|require\()\s*"(\.{1,2}\/[^"]*|\.|@coder-cdktf\/terraform-harness[^"]*)"/g,
  )) {
    // The plan harness by its package name: its folder, packages/terraform-harness.
    const base = m[1].startsWith(harness)
      ? path.join(root, "packages", "terraform-harness", m[1].slice(harness.length) || "src")
      : path.resolve(path.dirname(file), m[1]);
    for (const candidate of [`${base}.ts`, `${base}.js`, path.join(base, "index.ts")]) {
      if (fs.existsSync(candidate)) {
        found.push(candidate);
        break;
      }
    }
  }
  return found;
}

/**
 * Test files that run Terraform through the plan harness: those that import (directly or
 * through helpers such as the bad-input planner or scripts/commands/run-preview.ts) a module of
 * packages/terraform-harness that spawns Terraform.
 */
function harnessTestFiles() {
  const harness = path.join(root, "packages", "terraform-harness", "src");
  const runsTerraform = new Set(
    ["terraform-harness.ts", "plan-expressions.ts", "terraform-cli.ts"].map((f) =>
      path.join(harness, f),
    ),
  );
  // A walk per test file over its imports (read once each): a memo of "does not reach"
  // taken inside an import cycle would be wrong for the files that close the cycle.
  const imports = new Map();
  const importsOf = (file) => {
    if (!imports.has(file)) imports.set(file, relativeImports(file));
    return imports.get(file);
  };
  const reaches = (start) => {
    const seen = new Set([start]);
    const pending = [start];
    while (pending.length > 0) {
      const file = pending.pop();
      if (runsTerraform.has(file)) return true;
      for (const next of importsOf(file)) {
        if (!seen.has(next)) {
          seen.add(next);
          pending.push(next);
        }
      }
    }
    return false;
  };
  return allTestFiles().filter((f) => reaches(path.join(root, f)));
}

/**
 * CPU accounting for one jest run: a `terraform` first on PATH that runs the real one and
 * records its CPU time (bash's `times`: the children's user and system time) in a file per
 * run, and TFMOCK_CPU_LOG, to which every mock provider process appends its own at exit.
 */
function cpuAccounting() {
  const real = execFileSync("bash", ["-c", "command -v terraform"], { encoding: "utf8" }).trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-cpu-"));
  const terraformLogs = path.join(dir, "terraform");
  const mockLog = path.join(dir, "mock.log");
  fs.mkdirSync(path.join(dir, "bin"));
  fs.mkdirSync(terraformLogs);
  const shim = path.join(dir, "bin", "terraform");
  fs.writeFileSync(
    shim,
    [
      "#!/bin/bash",
      `${JSON.stringify(real)} "$@"`,
      "status=$?",
      // Two lines: the shell's own times, then its children's (terraform's). One file per
      // run, so that runs in parallel never interleave their lines.
      `times > ${JSON.stringify(terraformLogs)}/$$`,
      'exit "$status"',
      "",
    ].join("\n"),
  );
  fs.chmodSync(shim, 0o755);
  const lines = (file) =>
    fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
  const seconds = (t) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t);
    return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
  };
  return {
    env: { PATH: `${path.dirname(shim)}:${process.env.PATH}`, TFMOCK_CPU_LOG: mockLog },
    read: () => {
      const terraform = fs
        .readdirSync(terraformLogs)
        .map((f) => lines(path.join(terraformLogs, f))[1] ?? "")
        .map((l) => l.split(/\s+/).reduce((sum, t) => sum + seconds(t), 0));
      const mock = lines(mockLog).map((l) => Number(l) / 1e6);
      const sum = (xs) => xs.reduce((a, b) => a + b, 0);
      return {
        terraformRuns: terraform.length,
        terraform: sum(terraform),
        mockProcesses: mock.length,
        mock: sum(mock),
      };
    },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Rows for synth (ours and the cdktf CLI) and for one validate / plan of each template. */
async function synthAndPlanRows(rows) {
  const cleanOut = () => fs.rmSync(path.join(root, "cdktf.out"), { recursive: true, force: true });
  // Both synth paths from cold processes on the same stacks; build/ stays (it is what
  // `npm run synth` reuses between runs, as a developer's tree does).
  const fast = timeCommand("npm", ["run", "--silent", "synth"], cleanOut, Math.max(runs, 5));
  const cli = timeCommand("npx", ["cdktf", "synth"], cleanOut, Math.max(runs, 5));
  rows.push(["`npm run synth` (all templates)", fast]);
  rows.push(["`npx cdktf synth` (all templates)", cli]);
  rows.push(["ratio `npx cdktf synth` / `npm run synth`", cli / fast, "x"]);
  const rmBuild = () => fs.rmSync(path.join(root, "build"), { recursive: true, force: true });
  rows.push([
    "first synth after a source change (bundle rebuilt)",
    timeCommand("node", ["scripts/synth.js"], rmBuild),
  ]);

  // Preview is one synth and one apply in a cold process (docs/performance.md: <= 1.5 s).
  // The first run (not timed) builds its bundle and code cache, as a developer's first does.
  const previewArgs = [
    "scripts/preview.js",
    path.join("test", "app", "preview", "fixtures", "over-caps"),
  ];
  timeCommand("node", previewArgs, undefined, 1);
  // Without the template an earlier preview kept (build/preview-synth/, app/preview/synth-cache.ts),
  // as after a source or configuration change; then as a repeated preview, which reuses it.
  const rmKeptTemplate = () =>
    fs.rmSync(path.join(root, "build", "preview-synth"), { recursive: true, force: true });
  rows.push([
    "`npm run preview` of a repository (synth + apply)",
    timeCommand("node", previewArgs, rmKeptTemplate),
  ]);
  rows.push([
    "`npm run preview` again (the kept template + apply)",
    timeCommand("node", previewArgs),
  ]);

  const { synthTemplates } = require("../app/synth");
  const { TerraformHarness } = require("@coder-cdktf/terraform-harness");
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-"));
  const templates = synthTemplates({ outdir });
  rows.push([
    "plan harness: mock provider process start + stop",
    await timeAsync(async () => (await TerraformHarness.start()).stop()),
  ]);
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
}

/**
 * A jest configuration that is the project's with `change` applied (a temp file: jest takes
 * `--config` as a path), for the --machinery rows.
 */
function jestConfigWith(change) {
  const config = { ...require(path.join(root, "jest.config.js")), rootDir: root };
  change(config);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-jest-")), "jest.config.json");
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}

/**
 * What each piece of the test and script machinery saves, as the ratio of a run without it to
 * a run with everything (one run each, on a sample of the suite: every Nth test file), and
 * a synth of every template with and without cdktf's creation stacks (what preview skips).
 */
async function machineryRows(rows) {
  const every = Number(args[args.indexOf("--sample") + 1]) || 6;
  const sample = allTestFiles().filter((_, i) => i % every === 0);
  const jestRun = (config, extra = []) => {
    const t0 = process.hrtime.bigint();
    spawnSync("npx", ["jest", "--silent", "--config", config, ...extra, ...sample], {
      cwd: root,
      stdio: "ignore",
      env: process.env,
    });
    return Number(process.hrtime.bigint() - t0) / 1e9;
  };
  // The run cache is named by the global setup; this one runs it, then names none.
  const noRunCacheSetup = path.join(os.tmpdir(), `bench-no-run-cache-${process.pid}.js`);
  fs.writeFileSync(
    noRunCacheSetup,
    [
      `require(${JSON.stringify(path.join(root, "scripts", "ts.js"))}).register();`,
      `const setup = require(${JSON.stringify(path.join(root, "test", "support", "global-setup.ts"))}).default;`,
      "module.exports = async () => { await setup(); delete process.env.CODER_CDKTF_TEST_RUN_CACHE; };",
      "",
    ].join("\n"),
  );
  const variants = [
    [
      "the V8 code-cache jest runtime (test/support/code-cache-runtime.js)",
      (c) => delete c.runtime,
    ],
    [
      "the creation-stack patch in test files (test/support/cheap-creation-stacks.ts)",
      (c) => (c.setupFiles = c.setupFiles.filter((f) => !f.includes("cheap-creation-stacks"))),
    ],
    [
      "the shared mock provider process (test/support/shared-mock-environment.ts)",
      (c) => (c.testEnvironment = "node"),
    ],
    ["the harness's run cache (run-cache.ts)", (c) => (c.globalSetup = noRunCacheSetup)],
  ];
  const all = jestConfigWith(() => undefined);
  // A first run (not counted) fills jest's transform cache and the code cache.
  jestRun(all);
  const baseline = jestRun(all);
  rows.push([`sample of ${sample.length} test files, everything on`, baseline]);
  for (const [what, change] of variants) {
    const without = jestRun(jestConfigWith(change));
    rows.push([`  without ${what}`, without]);
    rows.push([`  ratio without / with`, without / baseline, "x"]);
  }
  const noTransformCache = jestRun(all, ["--no-cache"]);
  rows.push(["  without jest's transform cache (`--no-cache`)", noTransformCache]);
  rows.push(["  ratio without / with", noTransformCache / baseline, "x"]);
  fs.rmSync(noRunCacheSetup, { force: true });

  // cdktf's creation stacks: a synth of every template in this process, with and without.
  const { synthTemplates } = require("../app/synth");
  const { withoutCdktfCreationStacks } = require("../lib/private/creation-stacks");
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-stacks-"));
  try {
    synthTemplates({ outdir });
    const withStacks = await timeAsync(async () => synthTemplates({ outdir }));
    const withoutStacks = await timeAsync(async () =>
      withoutCdktfCreationStacks(() => synthTemplates({ outdir })),
    );
    rows.push(["synth of every template in-process, with creation stacks", withStacks]);
    rows.push(["  the same, creation stacks skipped (as preview does)", withoutStacks]);
    rows.push(["  ratio with / skipped", withStacks / withoutStacks, "x"]);
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * plan-upgrade (app/upgrade/): one workspace planned on its saved state against one plan of
 * the template without state, per template and as a ratio, in the same run; then 8 states at
 * once, for what many workspaces cost (docs/upgrades.md).
 */
async function upgradeRows(rows) {
  const { synthTemplates } = require("../app/synth");
  const { TerraformHarness } = require("@coder-cdktf/terraform-harness");
  const { planUpgrade } = require("../app/upgrade/plan-upgrade");
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-upgrade-"));
  const variablesOf = JSON.parse(
    fs.readFileSync(path.join(root, "test", "support", "bench-variables.json"), "utf8"),
  );
  const stateText = (name) =>
    fs.readFileSync(path.join(root, "test", "upgrade", "states", `${name}.tfstate.json`), "utf8");
  const harness = await TerraformHarness.start();
  try {
    for (const t of synthTemplates({ outdir })) {
      const variables = variablesOf[t.id];
      const text = stateText(t.id);
      const source = { source: t.id, read: async () => text };
      const { readWorkspaceState } = require("../app/upgrade/workspace-state");
      const recorded = readWorkspaceState(text, t.id);
      const plain = await timeAsync(() => harness.plan(t.dir, { variables }));
      // The same Terraform plan on the workspace's state, without plan-upgrade around it.
      const onState = await timeAsync(() =>
        harness.plan(t.dir, {
          variables,
          fixtures: recorded.fixtures,
          state: recorded.state,
          refresh: false,
          kubernetesApi: "report",
        }),
      );
      const upgrade = await timeAsync(async () => {
        const report = await planUpgrade(t, [source], { variables, harness });
        if ("error" in report.workspaces[0]) throw new Error(report.workspaces[0].error);
      });
      rows.push([`${t.id}: plan + show of the template, no state`, plain]);
      rows.push([`${t.id}: plan + show of the template on the workspace's state`, onState]);
      rows.push([`${t.id}: plan-upgrade of that workspace`, upgrade]);
      rows.push([`${t.id}: ratio plan-upgrade / plan on the state`, upgrade / onState, "x"]);
      rows.push([`${t.id}: ratio plan-upgrade / plan without state`, upgrade / plain, "x"]);
      if (t.id === "kubernetes") {
        const many = Array.from({ length: 8 }, (_, i) => ({
          source: `ws-${i}`,
          read: async () => text,
        }));
        const eight = await timeAsync(() => planUpgrade(t, many, { variables, harness }));
        rows.push([
          `${t.id}: plan-upgrade of 8 workspaces, ${os.cpus().length} plans at a time`,
          eight,
        ]);
        rows.push([`${t.id}: per workspace, of those 8`, eight / 8]);
      }
    }
  } finally {
    await harness.stop();
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * Issue 32.2: the worst devcontainer.json files a repository can commit under preview's
 * 1 MiB limit (scripts/bench-files/hostile-devcontainer-files.ts), against a typical file, as
 * ratios in one run: for each, what a workspace start costs with it: preview's reading and
 * metadata step (the service's answer) and a plan of the devcontainer template with real
 * Terraform on a built workspace (every plan and apply of the workspace evaluates the same
 * locals). The caps promise every ratio is at most HOSTILE_PLAN_RATIO_MAX; the row names the
 * worst file.
 */
const HOSTILE_PLAN_RATIO_MAX = 3;
async function hostileFileRows(rows) {
  const {
    hostileDevcontainerFiles,
    TYPICAL_DEVCONTAINER,
  } = require("./bench-files/hostile-devcontainer-files");
  const { parseDevcontainerJson } = require("../app/preview/devcontainer-file");
  const { deriveMetadata } = require("../app/preview/devcontainer-metadata");
  const { synthTemplates } = require("../app/synth");
  const { TerraformHarness } = require("@coder-cdktf/terraform-harness");
  const variables = JSON.parse(
    fs.readFileSync(path.join(root, "test", "support", "bench-variables.json"), "utf8"),
  ).devcontainer;
  const parameters = { repository: "https://git.example.com/acme/app.git" };
  // A built workspace: the build's outputs, and the metadata the service returns for it.
  const build = {
    id: "build-1",
    image: "registry.example.com/app:ws-1",
    commit: "3f2a9c0d5e6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f",
    resolved_registry: "registry.example.com",
    resolved_name: "app",
    resolved_tag: "ws-1",
  };
  const fixtures = (metadata) => ({
    resources: { devcontainerbuilder_build: build },
    data_sources: metadata ? { devcontainerbuilder_devcontainer: metadata } : {},
  });
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-hostile-"));
  const harness = await TerraformHarness.start();
  try {
    const template = synthTemplates({ outdir }).find((t) => t.id === "devcontainer");
    const built = await harness.apply(template.dir, {
      variables,
      parameters,
      workspace: { startCount: 0 },
      fixtures: fixtures(null),
    });
    const start = async (text) => {
      const t0 = process.hrtime.bigint();
      const read = parseDevcontainerJson(text, "devcontainer.json");
      const metadata = deriveMetadata(read.config).values;
      await harness.plan(template.dir, {
        variables,
        parameters,
        state: built,
        refresh: false,
        fixtures: fixtures(metadata),
      });
      return Number(process.hrtime.bigint() - t0) / 1e9;
    };
    const typicalText = JSON.stringify(TYPICAL_DEVCONTAINER);
    await start(typicalText); // warm: the mock's first read, the file cache
    const typical = await start(typicalText);
    rows.push(["a start's plan with a typical devcontainer.json (metadata step + plan)", typical]);
    let worst = { name: "", ratio: 0 };
    const only = args.includes("--only") ? args[args.indexOf("--only") + 1].split(",") : null;
    for (const [name, text] of Object.entries(hostileDevcontainerFiles())) {
      if (only && !only.includes(name)) continue;
      const ratio = (await start(text)) / typical;
      if (args.includes("--hostile-files"))
        process.stderr.write(`  ${name}: ${ratio.toFixed(2)}x\n`);
      if (only) rows.push([`ratio ${name} / typical, a start's plan`, ratio, "x"]);
      if (ratio > worst.ratio) worst = { name, ratio };
    }
    rows.push([
      `ratio worst 1 MiB devcontainer.json (${worst.name}) / typical, a start's plan (at most ${HOSTILE_PLAN_RATIO_MAX}x)`,
      worst.ratio,
      "x",
    ]);
  } finally {
    await harness.stop();
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * Issue 37.9: what a devcontainer workspace's builds cost with today's template against an
 * earlier commit's synthesized template (`--apply-vs REV`, default ce71965), side by side in
 * one run, alternating: a first start (apply without state) and the next start on that
 * state (plan and apply with no change), each timed as the provisioner runs them. The goal
 * is today / REV at most APPLY_RATIO_GOAL, without dropping a rule.
 */
const APPLY_RATIO_GOAL = 0.75;
async function applyVsRows(rows, rev) {
  const { synthTemplates } = require("../app/synth");
  const { TerraformHarness } = require("@coder-cdktf/terraform-harness");
  const variables = JSON.parse(
    fs.readFileSync(path.join(root, "test", "support", "bench-variables.json"), "utf8"),
  ).devcontainer;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `bench-apply-vs-${rev}-`));
  const harness = await TerraformHarness.start();
  try {
    // REV's template, synthesized by REV's own code.
    const { synthAtCommit } = require("./synth-at-commit");
    const before = path.join(synthAtCommit(rev, work, { quiet: true }), "devcontainer");
    const [today] = synthTemplates({ outdir: path.join(work, "today"), only: ["devcontainer"] });
    // Only the variables each version declares.
    const { stackConfiguration } = require("../lib/private/stack-configuration");
    const declared = (dir) => Object.keys(stackConfiguration(dir).variable ?? {});
    const inputsFor = (dir) => ({
      variables: Object.fromEntries(
        Object.entries(variables).filter(([name]) => declared(dir).includes(name)),
      ),
    });
    const timer = buildTimer();
    const times = { [rev]: { start: [], next: [] }, today: { start: [], next: [] } };
    try {
      for (let i = 0; i < runs; i++) {
        for (const [name, dir] of [
          [rev, before],
          ["today", today.dir],
        ]) {
          const inputs = inputsFor(dir);
          const first = await timer.time(() => harness.apply(dir, inputs));
          times[name].start.push(first);
          times[name].next.push(
            await timer.time(() => harness.apply(dir, { ...inputs, state: first.value })),
          );
        }
      }
    } finally {
      timer.cleanup();
    }
    for (const step of ["start", "next"]) {
      const what = step === "start" ? "first start (apply)" : "next start on its state (apply)";
      const of = (name, key) => median(times[name][step].map((t) => t[key]));
      rows.push([`devcontainer: ${what}, ${rev}'s template`, of(rev, "wall")]);
      rows.push([`devcontainer: ${what}, today's template`, of("today", "wall")]);
      rows.push([
        `devcontainer: ${what}, ratio today / ${rev} (goal <= ${APPLY_RATIO_GOAL})`,
        of("today", "wall") / of(rev, "wall"),
        "x",
      ]);
      rows.push([
        `devcontainer: ${what}, Terraform's CPU, ratio today / ${rev}`,
        of("today", "cpu") / of(rev, "cpu"),
        "x",
      ]);
    }
  } finally {
    await harness.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * A timer for one harness call that also reads the CPU Terraform spent in it (through
 * cpuAccounting's shim): on a shared host the wall time moves with the neighbours' load, the
 * CPU much less.
 */
function buildTimer() {
  const accounting = cpuAccounting();
  process.env.PATH = accounting.env.PATH;
  return {
    async time(fn) {
      const cpu0 = accounting.read().terraform;
      const t0 = process.hrtime.bigint();
      const value = await fn();
      return {
        value,
        wall: Number(process.hrtime.bigint() - t0) / 1e9,
        cpu: accounting.read().terraform - cpu0,
      };
    },
    cleanup: accounting.cleanup,
  };
}

/**
 * Where a devcontainer workspace's first start goes (issue 37.9): today's template applied
 * alternately with copies of it that lack one kind of block (the registry modules, the check
 * blocks, the variables' validations). Each copy plans the same resources otherwise, so
 * 1 - copy / full is what that kind costs a build. A measurement, not a proposal: every one
 * of them is a feature or a rule.
 */
async function applyBreakdownRows(rows) {
  const { synthTemplates } = require("../app/synth");
  const { TerraformHarness } = require("@coder-cdktf/terraform-harness");
  const all = JSON.parse(
    fs.readFileSync(path.join(root, "test", "support", "bench-variables.json"), "utf8"),
  ).devcontainer;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-apply-breakdown-"));
  const timer = buildTimer();
  const harness = await TerraformHarness.start();
  try {
    const [today] = synthTemplates({ outdir: path.join(work, "today"), only: ["devcontainer"] });
    const without = {
      "its registry modules": (j) => delete j.module,
      "its check blocks": (j) => delete j.check,
      "its variables' validations": (j) =>
        Object.values(j.variable).forEach((v) => delete v.validation),
    };
    const dirs = [["the full template", today.dir]];
    const { writeHclFiles } = require("../lib/private/hcl-files");
    for (const [what, edit] of Object.entries(without)) {
      const dir = path.join(work, what.replace(/\W+/g, "-"));
      fs.cpSync(today.dir, dir, { recursive: true });
      // The template's whole configuration without that part, written as synth writes it.
      const json = JSON.parse(JSON.stringify(today.model));
      edit(json);
      writeHclFiles(dir, json);
      dirs.push([`without ${what}`, dir]);
    }
    const times = new Map(dirs.map(([what]) => [what, { wall: [], cpu: [] }]));
    for (let i = 0; i < runs; i++) {
      for (const [what, dir] of dirs) {
        const { wall, cpu } = await timer.time(() => harness.apply(dir, { variables: all }));
        times.get(what).wall.push(wall);
        times.get(what).cpu.push(cpu);
      }
    }
    const full = times.get("the full template");
    rows.push(["devcontainer: first start (apply), the full template", median(full.wall)]);
    rows.push(["devcontainer: Terraform's CPU in it", median(full.cpu)]);
    for (const [what] of dirs.slice(1)) {
      const t = times.get(what);
      const ratio = (key) => median(t[key]) / median(full[key]);
      rows.push([`devcontainer: first start ${what}, wall / the full's`, ratio("wall"), "x"]);
      rows.push([
        `devcontainer: first start ${what}, Terraform's CPU / the full's`,
        ratio("cpu"),
        "x",
      ]);
    }
  } finally {
    timer.cleanup();
    await harness.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Issue 45.5: a devcontainer workspace's start from a fresh working directory, as Coder's
 * provisioner runs every build (TerraformHarness.initAndPlan: `terraform init`, the modules
 * from the harness's stubs and the providers the mock's servers, then `terraform plan`), with
 * today's template against a baseline, on each of firstStartCases(), in one run: per run and
 * case, each side once, in an order that rotates. The baseline is REV's template synthesized
 * by REV's own code (`--first-start [REV]`, default FIRST_START_REV), or an operator's
 * template folder (`--first-start-vs-dir DIR`). Each side starts on the state of its own first
 * build (stopped), so the data source reads the case's metadata during the plan.
 */
const FIRST_START_REV = "2a749b1";
const FIRST_START_GOALS = "<= 1.0x now, 0.8x";
async function firstStartRows() {
  const { synthTemplates } = require("../app/synth");
  const { TerraformHarness } = require("@coder-cdktf/terraform-harness");
  const files = require("./bench-files/first-start");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-first-start-"));
  const load = [os.loadavg()[0]];
  const harness = await TerraformHarness.start();
  const timer = buildTimer();
  try {
    const sides = firstStartSides(work, synthTemplates, files);
    const cases = firstStartCases();
    for (const side of sides) side.stopped = await firstBuild(harness, side);
    for (let i = 0; i < runs; i++) {
      for (const [k, c] of cases.entries()) {
        for (let s = 0; s < sides.length; s++) {
          const side = sides[(s + i + k) % sides.length];
          side.samples[k] ??= [];
          side.samples[k].push(await timedFirstStart(harness, timer, side, c));
        }
      }
      process.stderr.write(`  first start: run ${i + 1} of ${runs} done\n`);
    }
    const loads = await schemaLoads(sides, cases[0]);
    load.push(os.loadavg()[0]);
    printFirstStart(sides, cases, loads, load);
  } finally {
    timer.cleanup();
    await harness.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The baseline, today's template, and today's without its registry modules. */
function firstStartSides(work, synthTemplates, files) {
  const vsDir = args.indexOf("--first-start-vs-dir");
  const at = args.indexOf("--first-start");
  const rev =
    at >= 0 && args[at + 1] && !args[at + 1].startsWith("--") ? args[at + 1] : FIRST_START_REV;
  let baseline;
  if (vsDir >= 0) {
    const dir = path.resolve(args[vsDir + 1] ?? "");
    if (!fs.existsSync(dir)) throw new Error(`--first-start-vs-dir: no folder ${dir}`);
    baseline = { name: `${path.basename(dir)} (operator's)`, dir };
  } else {
    const { synthAtCommit } = require("./synth-at-commit");
    const stacks = synthAtCommit(rev, path.join(work, "rev"), { quiet: true });
    baseline = { name: `${rev}'s`, dir: path.join(stacks, "devcontainer") };
  }
  const [today] = synthTemplates({ outdir: path.join(work, "today"), only: ["devcontainer"] });
  const offline = (dir, name) => files.offlineCopy(dir, path.join(work, name));
  const todayDir = offline(today.dir, "today-offline");
  return [
    { name: baseline.name, dir: offline(baseline.dir, "baseline-offline") },
    { name: "today's", dir: todayDir },
    {
      name: "today's without its registry modules",
      dir: files.withoutModules(todayDir, path.join(work, "today-without-modules")),
    },
  ].map((side) => ({
    ...side,
    declared: files.declaredVariables(side.dir),
    counts: files.configurationCounts(side.dir),
    samples: [],
  }));
}

/**
 * The Dev Container metadata the first-start bench starts a workspace with: the plain image
 * every bad-input case varies, the 51 bad-input cases (test/templates/devcontainer/
 * bad-inputs.ts, with their variables and parameters), and two devcontainer.json files through
 * preview's metadata step (the hostile-files bench's typical one, preview's over-caps fixture).
 * The tests' own cases, read by path as bench-variables.json is: scripts import no test file.
 */
function firstStartCases() {
  const bad = require(path.join(root, "test", "templates", "devcontainer", "bad-inputs.ts"));
  const { TYPICAL_DEVCONTAINER } = require("./bench-files/hostile-devcontainer-files");
  const { parseDevcontainerJson } = require("../app/preview/devcontainer-file");
  const { deriveMetadata } = require("../app/preview/devcontainer-metadata");
  const derived = (text) => deriveMetadata(parseDevcontainerJson(text, "x").config).values;
  const overCaps = path.join(root, "test/app/preview/fixtures/over-caps/.devcontainer");
  const cases = [
    { name: "the plain image of the bad-input cases", metadata: bad.VALID_METADATA },
    ...bad.BAD_INPUT_CASES.map((c) => ({
      name: c.name,
      metadata: { ...bad.VALID_METADATA, ...c.metadata },
      inputs: c.inputs,
    })),
    {
      name: "a typical devcontainer.json",
      metadata: derived(JSON.stringify(TYPICAL_DEVCONTAINER)),
    },
    {
      name: "preview's over-caps devcontainer.json",
      metadata: derived(fs.readFileSync(path.join(overCaps, "devcontainer.json"), "utf8")),
    },
  ];
  const limit = Number(args[args.indexOf("--cases") + 1]);
  return args.includes("--cases") && limit > 0 ? cases.slice(0, limit) : cases;
}

/** The tests' devcontainer inputs (synthesized.ts), read by path as firstStartCases does. */
function devcontainerTestInputs() {
  return require(path.join(root, "test", "templates", "devcontainer", "synthesized.ts"));
}

/** The plan inputs of a case on a side: only the variables that side declares. */
function firstStartInputs(side, c) {
  const { devcontainerFixtures, REPOSITORY } = devcontainerTestInputs();
  const all = {
    ...JSON.parse(fs.readFileSync(path.join(root, "test", "support", "bench-variables.json")))
      .devcontainer,
    ...c?.inputs?.variables,
  };
  return {
    variables: Object.fromEntries(Object.entries(all).filter(([n]) => side.declared.has(n))),
    parameters: { repository: REPOSITORY, ...c?.inputs?.parameters },
    fixtures: devcontainerFixtures(c ? c.metadata : null),
  };
}

/** The state of a side's first build, stopped (as the bad-input planner starts from). */
function firstBuild(harness, side) {
  const { STOPPED_FIRST_BUILD } = devcontainerTestInputs();
  return harness.apply(side.dir, { ...STOPPED_FIRST_BUILD, ...firstStartInputs(side) });
}

/** One start of a case on a side: the wall and Terraform's CPU of its init and of its plan. */
async function timedFirstStart(harness, timer, side, c) {
  const sample = {};
  try {
    await harness.initAndPlan(
      side.dir,
      { ...firstStartInputs(side, c), state: side.stopped },
      async (step, run) => (sample[step] = await timer.time(run)),
    );
  } catch (error) {
    process.stderr.write(`  ${side.name} failed on "${c.name}": ${String(error).slice(0, 400)}\n`);
    return undefined;
  }
  return sample;
}

/**
 * How many GetProviderSchema calls the mock serves in the init and in the plan of one start
 * of each side (a mock of its own that logs every call, TFMOCK_LOG, untimed: logging turns the
 * mock's memo of repeated answers off).
 */
async function schemaLoads(sides, c) {
  const { TerraformHarness } = require("@coder-cdktf/terraform-harness");
  const log = path.join(os.tmpdir(), `bench-first-start-rpc-${process.pid}.log`);
  process.env.TFMOCK_LOG = log;
  const counting = await TerraformHarness.start();
  delete process.env.TFMOCK_LOG;
  const count = () =>
    fs.existsSync(log)
      ? fs
          .readFileSync(log, "utf8")
          .split("\n")
          .filter((l) => / GetProviderSchema\b/.test(l)).length
      : 0;
  try {
    const loads = [];
    // One side at a time: the log's lines carry no run.
    for (const side of sides) {
      const stepLoads = {};
      await counting.initAndPlan(
        side.dir,
        { ...firstStartInputs(side, c), state: side.stopped },
        async (step, run) => {
          const before = count();
          await run();
          stepLoads[step] = count() - before;
        },
      );
      loads.push(stepLoads);
    }
    return loads;
  } finally {
    await counting.stop();
    fs.rmSync(log, { force: true });
  }
}

/**
 * The first-start table: a column per side; the starts of cases that failed on a side are
 * left out of every side's sums (and named).
 */
function printFirstStart(sides, cases, loads, load) {
  const ok = cases
    .map((_, k) => k)
    .filter((k) => sides.every((side) => side.samples[k].every((sample) => sample)));
  // Per side and case, the median of its runs; then summed over the cases, and their median.
  const perCase = (side, pick) => ok.map((k) => median(side.samples[k].map(pick)));
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const wall = (t) => t.init.wall + t.plan.wall;
  const cpu = (t) => t.init.cpu + t.plan.cpu;
  const stats = sides.map((side) => ({
    medianWall: median(perCase(side, wall)),
    medianCpu: median(perCase(side, cpu)),
    wall: sum(perCase(side, wall)),
    cpu: sum(perCase(side, cpu)),
    initCpu: sum(perCase(side, (t) => t.init.cpu)),
    planCpu: sum(perCase(side, (t) => t.plan.cpu)),
  }));
  const [base] = stats;
  const s = (v) => v.toFixed(2);
  const x = (v) => `${v.toFixed(2)}x`;
  const rows = [
    ["a start, median of the cases: wall, seconds", (t) => s(t.medianWall)],
    ["a start, median of the cases: Terraform's CPU, seconds", (t) => s(t.medianCpu)],
    [`the ${ok.length} starts: wall, seconds`, (t) => s(t.wall)],
    [`the ${ok.length} starts: Terraform's CPU, seconds`, (t) => s(t.cpu)],
    [`ratio to ${sides[0].name}, wall (goal ${FIRST_START_GOALS})`, (t) => x(t.wall / base.wall)],
    [`ratio to ${sides[0].name}, Terraform's CPU`, (t) => x(t.cpu / base.cpu)],
    [`Terraform's CPU in \`init\`, the ${ok.length} starts, seconds`, (t) => s(t.initCpu)],
    [`Terraform's CPU in \`plan\`, the ${ok.length} starts, seconds`, (t) => s(t.planCpu)],
    ["local values of the root module", (_, side) => String(side.counts.locals)],
    ["local values of the modules it calls", (_, side) => String(side.counts.moduleLocals)],
    ["module calls", (_, side) => String(side.counts.modules)],
    [
      "GetProviderSchema calls served, init / plan",
      (_, __, n) => `${loads[n].init} / ${loads[n].plan}`,
    ],
  ];
  const cpus = os.cpus();
  const failed = cases.filter((_, k) => !ok.includes(k)).map((c) => c.name);
  process.stdout.write(
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus.length} × ${cpus[0]?.model ?? "cpu"}, ` +
      `Node ${process.version}, ${ok.length} of ${cases.length} cases, median of ${runs} runs each, ` +
      `load ${load.map((l) => l.toFixed(1)).join(" → ")}.` +
      (failed.length > 0 ? ` Left out (a side failed): ${failed.join("; ")}.` : "") +
      `\n\n| what | ${sides.map((side) => side.name).join(" | ")} |\n|---|${sides.map(() => "---|").join("")}\n` +
      rows
        .map(
          ([what, cell]) =>
            `| ${what} | ${stats.map((t, n) => cell(t, sides[n], n)).join(" | ")} |`,
        )
        .join("\n") +
      "\n",
  );
}

async function main() {
  if (args.includes("--list-plan-tests")) {
    process.stdout.write(`${harnessTestFiles().join("\n")}\n`);
    return;
  }
  if (args.includes("--first-start") || args.includes("--first-start-vs-dir")) {
    return firstStartRows();
  }
  const rows = [];
  if (args.includes("--apply-breakdown")) {
    await applyBreakdownRows(rows);
    return printRows(rows);
  }
  const applyVs = args.indexOf("--apply-vs");
  if (applyVs >= 0) {
    const rev =
      args[applyVs + 1] && !args[applyVs + 1].startsWith("--") ? args[applyVs + 1] : "ce71965";
    await applyVsRows(rows, rev);
    return printRows(rows);
  }
  if (args.includes("--machinery")) {
    await machineryRows(rows);
    return printRows(rows);
  }
  const upgradeOnly = args.includes("--upgrade-only");
  const hostileOnly = args.includes("--hostile-files");
  const testsOnly = args.includes("--tests-only");
  if (!testsOnly && !upgradeOnly && !hostileOnly) await synthAndPlanRows(rows);
  if (!testsOnly && !hostileOnly) await upgradeRows(rows);
  if (!testsOnly && !upgradeOnly) await hostileFileRows(rows);
  if (!args.includes("--no-tests") && !upgradeOnly && !hostileOnly) {
    const jest = (extra, env = {}) => {
      const t0 = process.hrtime.bigint();
      execFileSync("npx", ["jest", "--silent", ...extra], {
        cwd: root,
        stdio: "ignore",
        env: { ...process.env, ...env },
      });
      return Number(process.hrtime.bigint() - t0) / 1e9;
    };
    const planTests = new Set(harnessTestFiles());
    const others = allTestFiles().filter((f) => !planTests.has(f));
    const accounting = cpuAccounting();
    let whole;
    try {
      whole = jest([], accounting.env);
      const spent = accounting.read();
      rows.push([`Terraform's CPU in \`npm test\` (${spent.terraformRuns} runs)`, spent.terraform]);
      rows.push([
        `mock providers' CPU in \`npm test\` (${spent.mockProcesses} processes)`,
        spent.mock,
      ]);
      rows.push([
        `both, spread over ${os.cpus().length} cores: what the harness's work adds to \`npm test\``,
        (spent.terraform + spent.mock) / os.cpus().length,
      ]);
    } finally {
      accounting.cleanup();
    }
    const without = jest(others);
    rows.push(["`npm test` (whole suite, once)", whole]);
    rows.push([
      `\`npm test\` without the ${planTests.size} files that plan with the harness`,
      without,
    ]);
    rows.push([
      "what those files add to `npm test` (their Terraform and everything else)",
      whole - without,
    ]);
  }

  printRows(rows);
}

function printRows(rows) {
  const cpus = os.cpus();
  process.stdout.write(
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus.length} × ${cpus[0]?.model ?? "cpu"}, ` +
      `Node ${process.version}, median of ${runs} runs.\n\n| what | seconds |\n|---|---|\n` +
      rows.map(([k, v, unit]) => `| ${k} | ${v.toFixed(2)}${unit ?? ""} |`).join("\n") +
      "\n",
  );
}

main().catch((e) => {
  process.stderr.write(`bench failed: ${e.stack || e}\n`);
  process.exit(1);
});
