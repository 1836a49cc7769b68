/**
 * `npm run plan-upgrade` and `npm run push -- --check-upgrade` end to end, as npm runs them
 * (the bundled launchers), against a fake `coder` on PATH (fake-coder.sh) that serves the
 * saved states of test/upgrade/states/ and logs every call: the check only reads (`version`,
 * `list`, `state pull`), a failing or old CLI gives a clear error, and a push that would lose
 * data is refused unless --allow-data-loss.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { projectRoot } from "../../../lib/core/project-root";
import { itWithShellcheck } from "../../support/shellcheck";
import { stateFile } from "../../upgrade/states/state-cases";
import { UNREACHABLE_PROXY } from "../push/fake-cli";

jest.setTimeout(180_000);

/** A token-shaped value the fake CLI puts in its error message. */
const CLI_TOKEN = "ghp_CliT0k3nInAnErr0rM3ssag3AbCdEfGhIjKl";

const root = projectRoot();
let work: string;
let bin: string;
let states: string;
let config: string;
let variables: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "plan-upgrade-cli-"));
  bin = path.join(work, "bin");
  states = path.join(work, "states");
  fs.mkdirSync(bin);
  fs.mkdirSync(states);
  fs.copyFileSync(path.join(__dirname, "fake-coder.sh"), path.join(bin, "coder"));
  fs.chmodSync(path.join(bin, "coder"), 0o755);
  fs.copyFileSync(stateFile("kubernetes"), path.join(states, "alice+dev.json"));
  fs.copyFileSync(stateFile("kubernetes-stopped"), path.join(states, "bob+weekend.json"));
  // A workspace whose claim the release named `home_v1`: today's `home` destroys it.
  const renamed = JSON.parse(fs.readFileSync(stateFile("kubernetes"), "utf8"));
  for (const r of renamed.resources)
    if (r.type === "kubernetes_persistent_volume_claim_v1") r.name = "home_v1";
  fs.writeFileSync(path.join(states, "dave+old.json"), JSON.stringify(renamed));
  fs.writeFileSync(
    path.join(work, "list.json"),
    JSON.stringify([
      { owner_name: "alice", name: "dev", template_name: "kubernetes" },
      { owner_name: "alice", name: "app", template_name: "devcontainer" },
      { owner_name: "bob", name: "weekend", template_name: "kubernetes" },
    ]),
  );
  fs.writeFileSync(
    path.join(work, "list-with-loss.json"),
    JSON.stringify([
      { owner_name: "alice", name: "dev", template_name: "kubernetes" },
      { owner_name: "dave", name: "old", template_name: "kubernetes" },
    ]),
  );
  config = path.join(work, "empty.jsonc");
  fs.writeFileSync(config, "// built-in defaults\n{}\n");
  variables = path.join(work, "variables.yaml");
  fs.writeFileSync(variables, "namespace: coder-workspaces\n");
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

let runs = 0;
const out = () => path.join(work, `out-${runs}`);
/** Terraform, wherever it is on this machine's PATH (a run without the fake CLI still needs it). */
const terraform = spawnSync("sh", ["-c", "command -v terraform"], {
  encoding: "utf8",
}).stdout.trim();
function run(script: string, args: readonly string[], env: Record<string, string> = {}) {
  const dir = path.join(work, `run-${++runs}`);
  fs.mkdirSync(dir);
  const log = path.join(dir, "coder.log");
  const result = spawnSync(
    process.execPath,
    [path.join(root, "scripts", script), ...args, "--config", config],
    {
      cwd: dir,
      encoding: "utf8",
      env: {
        PATH: `${bin}:${process.env.PATH}`,
        HOME: dir,
        CHECKPOINT_DISABLE: "1",
        FAKE_CODER_LOG: log,
        FAKE_CODER_STATES: states,
        FAKE_CODER_LIST: path.join(work, "list.json"),
        // push's provider lock must never reach a registry from a test (fake-cli.ts).
        HTTPS_PROXY: UNREACHABLE_PROXY,
        ...env,
      },
    },
  );
  const calls = () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").trim().split("\n") : []);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, calls };
}

const planUpgrade = (args: readonly string[], env: Record<string, string> = {}) =>
  run("plan-upgrade.js", ["kubernetes", "--variables-file", variables, ...args], env);

describe("npm run plan-upgrade", () => {
  itWithShellcheck("uses a fake coder that passes shellcheck", () => {
    const check = spawnSync("shellcheck", [path.join(__dirname, "fake-coder.sh")], {
      encoding: "utf8",
    });
    expect(check.stdout).toBe("");
    expect(check.status).toBe(0);
  });

  it("pulls every workspace of the template (--all), only reading, and prints the table", () => {
    const r = planUpgrade(["--all"]);
    expect(r.stderr).not.toContain("plan-upgrade:");
    expect(r.status).toBe(0);
    // The pulls run in parallel workers (one per core), so their order is not the list's.
    const calls = r.calls();
    expect(calls.slice(0, 2)).toEqual(["version", "list --all --output json"]);
    expect(calls.slice(2).sort()).toEqual(["state pull alice/dev", "state pull bob/weekend"]);
    // Running: its pod restarts (no ServiceAccount token mounted any more, issue 32 item 5).
    expect(r.stdout).toMatch(/\| alice\/dev\s+\| running\s+\| pod restarted\s+\| no\s+\| no\s+\|/);
    expect(r.stdout).toMatch(/\| bob\/weekend\s+\| stopped\s+\| nothing\s+\| no\s+\| no\s+\|/);
    expect(r.stdout).toContain("summary: 1 nothing, 1 pod restarted; no workspace loses data");
    // No value of the states (the fixture's tokens) reaches the output.
    expect(r.stdout + r.stderr).not.toMatch(/fixture-session-token|fixture-ssh-private-key/);
  });

  it("exits 3 and names the claim when a workspace would lose data (--json too)", () => {
    const r = planUpgrade(["--workspace", "dave/old", "--json"]);
    expect(r.status).toBe(3);
    const report = JSON.parse(r.stdout);
    expect(report.losesData).toBe(true);
    expect(report.workspaces[0]).toMatchObject({
      workspace: "dave/old",
      source: "dave/old",
      outcome: "destroyed",
      dataLoss: ["kubernetes_persistent_volume_claim_v1.home_v1"],
    });
  });

  it("reads saved states offline (--state) without any coder CLI", () => {
    const r = run(
      "plan-upgrade.js",
      ["kubernetes", "--variables-file", variables, "--state", stateFile("kubernetes")],
      { PATH: `${path.dirname(terraform)}:${path.dirname(process.execPath)}:/usr/bin:/bin` },
    );
    expect(r.stderr).not.toContain("plan-upgrade:");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("alice/dev (");
  });

  it("says what failed when `coder state pull` fails, with the CLI's own words", () => {
    const r = planUpgrade(["--workspace", "alice/dev"], { FAKE_CODER_FAIL: "state" });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("alice/dev (alice/dev): not planned");
    expect(r.stdout).toContain(
      "  coder state pull alice/dev exited with 1:\n" +
        '    Encountered an error running "coder state", see "coder state --help" for more information\n' +
        "    error: GET https://coder.example.com/api/v2/users/me: unexpected status code 401: You must be logged in.\n",
    );
  });

  it("masks a token in what the CLI says, in the report and on stderr (issue 43.4)", () => {
    const error = `error: GET https://admin:${CLI_TOKEN}@coder.example.com/api/v2/users/me: 401`;
    const pull = planUpgrade(["--workspace", "alice/dev"], {
      FAKE_CODER_FAIL: "state",
      FAKE_CODER_ERROR: error,
    });
    expect(pull.status).toBe(1);
    expect(pull.stdout).toContain("error: GET https://***@coder.example.com/api/v2/users/me: 401");
    const json = planUpgrade(["--workspace", "alice/dev", "--json"], {
      FAKE_CODER_FAIL: "state",
      FAKE_CODER_ERROR: error,
    });
    expect(JSON.parse(json.stdout).workspaces[0].error).toContain("https://***@coder.example.com");
    const list = planUpgrade(["--all"], { FAKE_CODER_FAIL: "list", FAKE_CODER_ERROR: error });
    expect(list.stderr).toContain("https://***@coder.example.com");
    for (const r of [pull, json, list]) expect(r.stdout + r.stderr).not.toContain(CLI_TOKEN);
  });

  it("says so when the CLI prints no state", () => {
    const r = planUpgrade(["--workspace", "alice/dev"], { FAKE_CODER_EMPTY_STATE: "1" });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("alice/dev: not a Terraform state (not JSON: the output was empty)");
  });

  it("refuses a CLI older than v2, before pulling anything", () => {
    const r = planUpgrade(["--all"], { FAKE_CODER_VERSION: "v1.34.0" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "is coder v1.34.0; reading workspace states needs v2.0.0 or later (`coder state pull`)",
    );
    expect(r.calls()).toEqual(["version"]);
  });

  it("says what failed when `coder list` fails (--all)", () => {
    const r = planUpgrade(["--all"], { FAKE_CODER_FAIL: "list" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("coder list --all --output json exited with 1:");
  });

  it("refuses a command line without states, and a missing variable value", () => {
    const none = run("plan-upgrade.js", ["kubernetes", "--variables-file", variables]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("name the states to plan");
    const noVariables = run("plan-upgrade.js", ["kubernetes", "--all"]);
    expect(noVariables.status).toBe(2);
    expect(noVariables.stderr).toContain("variables without a default: namespace");
  });
});

describe("npm run push -- --check-upgrade", () => {
  const push = (extra: readonly string[]) =>
    run(
      "push.js",
      ["kubernetes", "--variables-file", variables, "--check-upgrade", "--outdir", out(), ...extra],
      {
        FAKE_CODER_LIST: path.join(work, "list-with-loss.json"),
      },
    );

  it("refuses to push a version that would lose a workspace's data", () => {
    const r = push([]);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain("DATA LOSS in 1: dave/old");
    expect(r.stderr).toContain("push refused: this version would lose the data");
    expect(r.calls().filter((c) => c.startsWith("templates"))).toEqual([]);
  });

  it("masks a token in what the CLI says, on stderr (issue 43.4)", () => {
    const r = run(
      "push.js",
      ["kubernetes", "--variables-file", variables, "--check-upgrade", "--outdir", out()],
      {
        FAKE_CODER_FAIL: "list",
        FAKE_CODER_ERROR: `error: GET https://${CLI_TOKEN}@coder.example.com/api/v2/workspaces`,
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("push refused: the upgrade check could not read");
    expect(r.stderr).toContain("https://***@coder.example.com/api/v2/workspaces");
    expect(r.stdout + r.stderr).not.toContain(CLI_TOKEN);
  });

  it("pushes anyway with --allow-data-loss", () => {
    const r = push(["--allow-data-loss"]);
    expect(r.stderr).toContain("--allow-data-loss: pushing although");
    expect(r.status).toBe(0);
    expect(r.calls().filter((c) => c.startsWith("templates push kubernetes"))).toHaveLength(1);
  });
});

describe("an interrupted check", () => {
  /** A terraform that interrupts its caller as its plan starts, as Ctrl-C would. */
  function interruptingTerraform(): string {
    const dir = path.join(work, `interrupting-${++runs}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, "terraform"),
      [
        "#!/bin/sh",
        'if [ "$1" = plan ]; then',
        // Like Terraform winding down on a Ctrl-C, a child still adds files to its work dir
        // while the command removes it (until the folder is gone): a plain rmSync fails with
        // ENOTEMPTY and exit 1, which CI hit once under load.
        '  (i=0; while [ "$i" -lt 400 ] && mkdir "w$i" 2>/dev/null && : > "w$i/f"; do i=$((i+1)); done) >/dev/null 2>&1 &',
        '  kill -INT "$PPID"',
        "fi",
        `exec '${terraform}' "$@"`,
        "",
      ].join("\n"),
    );
    fs.chmodSync(path.join(dir, "terraform"), 0o755);
    return dir;
  }

  it.each([
    ["plan-upgrade.js", ["kubernetes", "--variables-file", "V", "--workspace", "alice/dev"]],
    ["push.js", ["kubernetes", "--variables-file", "V", "--check-upgrade", "--outdir", "OUT"]],
  ])("%s removes the states it pulled (its temp folders) and exits 130", (script, args) => {
    const runTmp = fs.mkdtempSync(path.join(work, "tmp-"));
    const r = run(
      script,
      args.map((a) => (a === "V" ? variables : a === "OUT" ? out() : a)),
      { PATH: `${interruptingTerraform()}:${bin}:${process.env.PATH}`, TMPDIR: runTmp },
    );
    expect(r.stderr).not.toContain("ENOTEMPTY");
    expect(r.status).toBe(130);
    expect(fs.readdirSync(runTmp)).toEqual([]);
    expect(r.calls()).toContain("state pull alice/dev");
    expect(r.calls().filter((c) => c.startsWith("templates"))).toEqual([]);
  });
});
