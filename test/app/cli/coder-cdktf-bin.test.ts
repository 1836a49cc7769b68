import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { projectRoot } from "../../../lib/core/project-root";

// package.json's `bin`: `npx coder-cdktf synth|push|promote|preview|new-template` runs what the
// npm scripts run, without npm's `> coder-cdktf@… <script>` banner on stdout, so
// `npx coder-cdktf preview --json` prints JSON only. And `npm run cdktf:synth` asks nothing of
// the network (no checkpoint lookup).

jest.setTimeout(120_000);

const root = projectRoot();
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const BIN = path.join(root, pkg.bin["coder-cdktf"]);

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "bin-test-"));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** `npx coder-cdktf …` from the project, as a user runs it. */
function npx(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync("npx", ["--no-install", "coder-cdktf", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, CHECKPOINT_DISABLE: "1", ...env },
  });
}

it("is an executable node script whose every command has its launcher", () => {
  expect(fs.readFileSync(BIN, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  expect(fs.statSync(BIN).mode & 0o111).not.toBe(0);
  const source = fs.readFileSync(BIN, "utf8");
  for (const command of ["synth", "push", "promote", "preview", "new-template"]) {
    expect(source).toContain(command.includes("-") ? `"${command}"` : `${command}:`);
  }
  for (const launcher of [
    "synth.js",
    "push.js",
    "promote.js",
    "preview.js",
    "commands/new-template.ts",
  ]) {
    expect(fs.existsSync(path.join(root, "scripts", launcher))).toBe(true);
  }
});

it("prints its usage without a command, and refuses an unknown one", () => {
  const bare = spawnSync(process.execPath, [BIN], { encoding: "utf8" });
  expect(bare.status).toBe(2);
  expect(bare.stdout).toMatch(/^usage: coder-cdktf <command>/);
  expect(bare.stdout).toMatch(/\n {2}push +synthesize one template and push it to Coder\n/);
  const unknown = spawnSync(process.execPath, [BIN, "deploy"], { encoding: "utf8" });
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain('coder-cdktf: unknown command "deploy"');
});

it("npx coder-cdktf push … prints what npm run push prints, its arguments passed as they are", () => {
  const config = path.join(work, "c.jsonc");
  fs.writeFileSync(
    config,
    `{ "templates": { "kubernetes": { "variables": { "namespace": "n" } } } }`,
  );
  const args = ["kubernetes", "--dry-run", "--name", "v1", "-m", "it's", "--config", config];
  const outdir = ["--outdir", path.join(work, "out")];
  const viaBin = npx(["push", ...args, ...outdir], {
    PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`,
  });
  const direct = spawnSync(
    process.execPath,
    [path.join(root, "scripts", "push.js"), ...args, ...outdir],
    {
      encoding: "utf8",
      env: { ...process.env, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` },
    },
  );
  expect(viaBin.stderr).not.toContain("npm ERR");
  expect(viaBin.status).toBe(0);
  // The lock command comes first where that PATH has terraform (/usr/bin on some machines).
  expect(viaBin.stdout).toMatch(
    /^(terraform providers lock [^\n]*\n)?coder templates push kubernetes -d /,
  );
  expect(viaBin.stdout).toBe(direct.stdout);
});

it("npx coder-cdktf preview --json prints parseable JSON on stdout (no npm banner)", () => {
  const run = npx([
    "preview",
    path.join(root, "test", "app", "preview", "fixtures", "no-devcontainer"),
    "--json",
  ]);
  expect(run.status).toBe(0);
  expect(run.stdout.startsWith("{")).toBe(true);
  const report = JSON.parse(run.stdout);
  expect(report.devcontainerFile).toBeNull();
  expect(report.variables.namespace).toBe("coder-workspaces");
});

describe("npm run cdktf:synth", () => {
  // Records every DNS lookup and TCP connection to a host that is not this machine, in every
  // Node process the command starts (NODE_OPTIONS is inherited).
  const hook = () => {
    const file = path.join(work, "no-network.js");
    fs.writeFileSync(
      file,
      `const fs = require("fs"), dns = require("dns"), net = require("net");
const log = (what) => fs.appendFileSync(process.env.NETWORK_LOG, what + "\\n");
const lookup = dns.lookup;
dns.lookup = function (host, ...rest) { log("dns " + host); return lookup.call(this, host, ...rest); };
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const o = typeof args[0] === "object" ? args[0] : { port: args[0], host: args[1] };
  if (o && o.path === undefined && o.host && !/^(127\\.|localhost$|::1$)/.test(String(o.host))) log("tcp " + o.host + ":" + o.port);
  return connect.apply(this, args);
};
`,
    );
    return file;
  };
  const withHook = (command: string[], log: string) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NETWORK_LOG: log,
      NODE_OPTIONS: `--require ${hook()}`,
    };
    delete env.CHECKPOINT_DISABLE;
    return spawnSync(command[0], command.slice(1), { cwd: root, encoding: "utf8", env });
  };

  it("has a hook that sees a lookup (so an empty log means none happened)", () => {
    const log = path.join(work, "probe.log");
    withHook(
      [process.execPath, "-e", "require('dns').lookup('checkpoint-api.hashicorp.com', () => {})"],
      log,
    );
    expect(fs.readFileSync(log, "utf8")).toBe("dns checkpoint-api.hashicorp.com\n");
  });

  it("synthesizes every template without a checkpoint lookup, even without CHECKPOINT_DISABLE in the environment", () => {
    expect(pkg.scripts["cdktf:synth"]).toMatch(/^CHECKPOINT_DISABLE=1 /);
    const log = path.join(work, "cdktf-synth.log");
    const run = withHook(["npm", "run", "--silent", "cdktf:synth"], log);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Generated Terraform code for the stacks");
    expect(fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "").toBe("");
  });
});
