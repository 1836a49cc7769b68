/**
 * `npm run preview` on fixture repositories: previews share a session on the devcontainer
 * template the jest run synthesized (startSession), and each test checks what is printed.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { PreviewSession } from "../../../app/preview/preview-session";
import { RUN_CACHE_ENV } from "@coder-cdktf/terraform-harness/src/run-cache";
import { previewWith, row, section, startSession } from "./report-text";

jest.setTimeout(60000);

const FIXTURES = join(__dirname, "fixtures");

let session: PreviewSession;
beforeAll(async () => {
  session = await startSession();
});
afterAll(() => session?.close());

const preview = (...argv: string[]) => previewWith(session, argv);

describe("resources over the caps", () => {
  it("prints the capped requests, the GPU limit, the disk floor and a warning per cap", async () => {
    const { status, stdout, stderr } = await preview(join(FIXTURES, "over-caps"));
    expect(stderr).toBe("");
    expect(status).toBe(0);
    const resources = section(stdout, "Resources");
    // requests cpu "12" and memory "100Gi" against max_cpu 8 and max_memory 32
    expect(row(resources, "cpu")).toEqual(["cpu", "8", "8"]);
    expect(row(resources, "memory")).toEqual(["memory", "32Gi", "32Gi"]);
    expect(row(resources, "nvidia.com/gpu")).toEqual(["nvidia.com/gpu", "-", "1"]);
    // hostRequirements.storage "64gb" is above the 10 GiB disk parameter
    expect(row(resources, "disk (PVC)")?.[1]).toBe("64Gi");
    expect(resources.join("\n")).toMatch(/workspace page: CPU 8 \/ 8 · memory 32Gi \/ 32Gi/);

    const warnings = section(stdout, "Warnings in the build log");
    expect(warnings.filter((w) => /max_cpu/.test(w) && /"12"/.test(w))).toHaveLength(1);
    expect(warnings.filter((w) => /max_memory/.test(w) && /"100Gi"/.test(w))).toHaveLength(1);
    expect(warnings.filter((w) => /allow_node_placement/.test(w))).toHaveLength(1);
    expect(row(section(stdout, "Node placement"), "node selector")).toEqual([
      "node selector",
      "kubernetes.io/arch=amd64",
    ]);
    expect(section(stdout, "Dev Container variables the workspace lacks")[0]).toBe(
      "  - PIP_INDEX_TOKEN",
    );
    expect(section(stdout, "Apps").some((l) => /Jupyter\s+http:\/\/localhost:8888/.test(l))).toBe(
      true,
    );
  });

  it("follows --var: higher caps and node placement allowed (JSON output)", async () => {
    const { status, stdout } = await preview(
      join(FIXTURES, "over-caps"),
      "--var",
      "max_cpu=16",
      "--var=allow_node_placement=true",
      "--json",
    );
    expect(status).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.variables).toMatchObject({ max_cpu: "16", allow_node_placement: "true" });
    expect(report.workspace.resources.requests).toEqual({ cpu: "12", memory: "32Gi" });
    expect(report.workspace.placement.nodeSelector).toEqual({
      pool: "gpu",
      "kubernetes.io/arch": "amd64",
    });
    expect(report.workspace.placement.tolerations).toEqual([
      { key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" },
    ]);
    expect(report.workspace.warnings.some((w: string) => /max_cpu/.test(w))).toBe(false);
    expect(report.lifecycleHooks).toEqual(["postCreateCommand"]);
  });
});

describe("bad JSONC", () => {
  // Written at run time: a broken file under test/ would fail the repository's Prettier check.
  let repo: string;
  beforeAll(() => {
    repo = join(mkdtempSync(join(tmpdir(), "preview-")), "bad-jsonc");
    mkdirSync(join(repo, ".devcontainer"), { recursive: true });
    writeFileSync(
      join(repo, ".devcontainer", "devcontainer.json"),
      [
        "{",
        "  // comments and trailing commas are fine in JSONC; a missing comma is not",
        '  "image": "mcr.microsoft.com/devcontainers/base:bookworm"',
        '  "remoteUser": "vscode",',
        "}",
      ].join("\n"),
    );
  });
  afterAll(() => rmSync(dirname(repo), { recursive: true, force: true }));

  it("previews what the Dev Containers CLI reads past the error, naming its line and column", async () => {
    const { status, stdout } = await preview(repo, "--json");
    expect(status).toBe(0);
    const report = JSON.parse(stdout);
    // line 4 starts the property after the one missing its comma
    expect(report.notes[0]).toMatch(
      /^\S*bad-jsonc\/\.devcontainer\/devcontainer\.json has JSONC syntax errors, which the Dev Containers CLI .* reads past.*devcontainer\.json:4:3 CommaExpected\.$/,
    );
    // The property after the error is read, as the CLI reads it.
    expect(report.workspace.user.name).toBe("vscode");
  });

  it("refuses, as the CLI does, a file whose top level is not an object", async () => {
    const file = join(dirname(repo), "list.json");
    writeFileSync(file, '[{ "image": "alpine" }]');
    const { status, stdout, stderr } = await preview(file);
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(
      /list\.json: the top level is not a JSON object, which the Dev Containers CLI refuses; the build would fail\n$/,
    );
  });
});

describe("mounts colliding", () => {
  it("keeps the free paths and prints a warning for each dropped mount", async () => {
    const { status, stdout } = await preview(
      join(FIXTURES, "mount-collision", ".devcontainer.json"),
    );
    expect(status).toBe(0);
    const mounts = section(stdout, "Mounts (container dev)");
    expect(row(mounts, "/home/dev")).toEqual(["/home/dev", "PVC subPath home", "read-write"]);
    expect(row(mounts, "/src/mount-collision")?.[1]).toBe("PVC subPath workspace-folder");
    expect(row(mounts, "/opt/deps")?.[1]).toBe(
      "PVC subPath volumes/deps, seeded from the image on first use",
    );
    expect(mounts.filter((l) => /^\s*\/workspaces\s/.test(l))).toHaveLength(1);

    const warnings = section(stdout, "Warnings in the build log");
    expect(warnings[0]).toMatch(/^ {2}- .*bind mount.*\/home\/dev\/\.ssh/);
    for (const target of ["/home/dev", "/opt/deps", "/workspaces"]) {
      expect(warnings.filter((w) => w.includes(`mount at ${target} is not mounted`))).toHaveLength(
        1,
      );
    }
    expect(section(stdout, "Only the service knows").join("\n")).toMatch(
      /Features \(ghcr\.io\/devcontainers\/features\/git:1\)/,
    );
  });
});

describe("no devcontainer.json", () => {
  it("plans the fallback with the parameters' resources and says what it assumed", async () => {
    const { status, stdout } = await preview(join(FIXTURES, "no-devcontainer"));
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Dev Container preview of a repository without devcontainer\.json/);
    const resources = section(stdout, "Resources");
    expect(row(resources, "cpu")).toEqual(["cpu", "250m", "2"]);
    expect(row(resources, "memory")).toEqual(["memory", "512Mi", "2Gi"]);
    expect(row(resources, "disk (PVC)")?.[1]).toBe("10Gi");
    expect(row(section(stdout, "User"), "user")).toEqual([
      "user",
      "decided at build time (the image's devcontainer.metadata remoteUser, else its USER); planned as root (uid 0, gid 0, fsGroup 0)",
    ]);
    expect(section(stdout, "Only the service knows").join("\n")).toMatch(/fallback image/);
    expect(section(stdout, "Assumed instead").join("\n")).toMatch(
      /the image decides at build time/,
    );
    expect(section(stdout, "Warnings in the build log (0)")).toEqual(["  none"]);
  });
});

describe("usage", () => {
  it.each([
    [[], /name a devcontainer\.json or a repository folder/],
    [["a", "b"], /one target at a time/],
    [["x", "--bogus"], /unknown option --bogus/],
    [["x", "--var", "novalue"], /expected name=value/],
    [[join(FIXTURES, "does-not-exist")], /no such file or folder/],
  ])("%j exits 2 with a message", async (argv, message) => {
    const { status, stdout, stderr } = await preview(...argv);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
  });
});

describe("npm run preview (scripts/preview.js)", () => {
  it("runs from plain node, prints JSON, and is at most one synth (kept for the next run) plus one apply", async () => {
    // A terraform first on PATH that logs each run's subcommand; the jest run's cache is
    // left out, so the apply really runs.
    const bin = mkdtempSync(join(tmpdir(), "preview-terraform-"));
    try {
      const real = spawnSync("sh", ["-c", "command -v terraform"], { encoding: "utf8" });
      const log = join(bin, "runs.log");
      writeFileSync(
        join(bin, "terraform"),
        `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\nexec '${real.stdout.trim()}' "$@"\n`,
      );
      chmodSync(join(bin, "terraform"), 0o755);
      const env: Record<string, string | undefined> = {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
      };
      delete env[RUN_CACHE_ENV];
      const root = join(__dirname, "..", "..", "..");
      const previewOnce = () =>
        spawnSync(
          process.execPath,
          [join(root, "scripts", "preview.js"), join(FIXTURES, "no-devcontainer"), "--json"],
          { encoding: "utf8", env },
        );
      // The first run synthesizes and keeps the template (app/preview/synth-cache.ts); the
      // second previews the kept one, and must print the same.
      const synthCache = join(root, "build", "preview-synth");
      rmSync(synthCache, { recursive: true, force: true });
      const run = previewOnce();
      expect(readdirSync(synthCache)).toHaveLength(1);
      const again = previewOnce();
      expect(again.stderr).toBe("");
      expect(again.stdout).toBe(run.stdout);
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      const report = JSON.parse(run.stdout);
      expect(report.devcontainerFile).toBeNull();
      // No coder-cdktf.jsonc in the project: the report says the template's defaults applied.
      expect(report.operatorConfig).toBeNull();
      expect(report.workspace.resources.requests).toEqual({ cpu: "250m", memory: "512Mi" });
      // The tests' session, on the run's synthesized template, previews exactly this.
      const inSession = await preview(join(FIXTURES, "no-devcontainer"), "--json");
      expect(JSON.parse(inSession.stdout)).toEqual(report);
      const runs = readFileSync(log, "utf8").trim().split("\n");
      // Besides the version check, one apply per run: no plan, show or refresh, and no `get`
      // (the harness writes the manifest of its stub modules itself).
      expect(runs.filter((r) => r !== "version")).toEqual(["apply", "apply"]);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

describe("an interrupted npm run preview", () => {
  it("removes its temp folders (the configuration and variables among them) and exits 130", () => {
    // A terraform that interrupts preview as its apply starts, as Ctrl-C would.
    const bin = mkdtempSync(join(tmpdir(), "preview-interrupt-"));
    const runTmp = mkdtempSync(join(tmpdir(), "preview-tmp-"));
    try {
      const real = spawnSync("sh", ["-c", "command -v terraform"], { encoding: "utf8" });
      writeFileSync(
        join(bin, "terraform"),
        `#!/bin/sh\n[ "$1" = apply ] && kill -INT "$PPID"\nexec '${real.stdout.trim()}' "$@"\n`,
      );
      chmodSync(join(bin, "terraform"), 0o755);
      const env: Record<string, string | undefined> = {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        TMPDIR: runTmp,
      };
      delete env[RUN_CACHE_ENV];
      const root = join(__dirname, "..", "..", "..");
      const run = spawnSync(
        process.execPath,
        [
          join(root, "scripts", "preview.js"),
          join(FIXTURES, "over-caps"),
          "--param",
          "devcontainer_variables=NPM_TOKEN=secret-value-123",
        ],
        { encoding: "utf8", env },
      );
      expect(run.status).toBe(130);
      expect(run.stdout).toBe("");
      expect(readdirSync(runTmp)).toEqual([]);
    } finally {
      rmSync(bin, { recursive: true, force: true });
      rmSync(runTmp, { recursive: true, force: true });
    }
  });
});

describe("Dev Container variables", () => {
  it("counts a variable as set by its name and never prints the values", async () => {
    const { status, stdout } = await preview(
      join(FIXTURES, "over-caps"),
      "--param",
      "devcontainer_variables=PIP_INDEX_TOKEN=secret-value-123\nOTHER=x",
    );
    expect(status).toBe(0);
    expect(stdout).not.toContain("Dev Container variables the workspace lacks");
    expect(stdout).not.toContain("secret-value-123");
    expect(stdout).toMatch(/devcontainer_variables=\(values hidden\) PIP_INDEX_TOKEN, OTHER/);
  });
});
