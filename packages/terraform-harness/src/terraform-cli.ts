/**
 * Running the real Terraform CLI from tests: version check, a hermetic environment and
 * a promise-based runner that captures output.
 */
import { spawn } from "node:child_process";
import { type Diagnostic, diagnosticsFromStream } from "./diagnostics";
import { harnessFile } from "./package-files";

/** Oldest Terraform the plan tests accept: the templates require 1.9 (their registry modules do). */
export const MINIMUM_TERRAFORM_VERSION = "1.9.0";

/** Result of one Terraform invocation. */
export interface TerraformRun {
  readonly args: readonly string[];
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options for {@link runTerraform}. */
export interface RunTerraformOptions {
  /** Working directory (the Terraform root module). */
  readonly cwd: string;
  /** Extra environment, e.g. TF_REATTACH_PROVIDERS. @default {} */
  readonly env?: Readonly<Record<string, string>>;
  /** Throw when Terraform exits non-zero. @default true */
  readonly check?: boolean;
}

/** Options for {@link requireTerraform}. */
export interface RequireTerraformOptions {
  /** PATH to search for `terraform`. @default process.env.PATH */
  readonly path?: string;
}

/**
 * An empty CLI config file (shipped next to this module). Some machines preset
 * TF_CLI_CONFIG_FILE to a missing file, and a developer's ~/.terraformrc could carry
 * dev_overrides or mirrors, so every run gets this one.
 */
export const EMPTY_CLI_CONFIG = harnessFile("empty.tfrc");

/** The environment every Terraform run of the harness uses. */
export function terraformEnvironment(
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    // Inherited TF_* settings (log level, plugin cache, reattach, vars) would make runs depend
    // on the developer's shell.
    if (value !== undefined && !key.startsWith("TF_")) env[key] = value;
  }
  return {
    // Terraform runs here are short-lived: at Go's default (GOGC=100) a devcontainer plan spends
    // about a quarter of its CPU collecting garbage that the exit frees anyway. 400 costs a
    // larger heap (~150 MB for one plan, ~600 MB for a 44-instance module batch) and saves
    // ~20% CPU on every run. An explicit GOGC in the environment wins.
    GOGC: "400",
    ...env,
    TF_CLI_CONFIG_FILE: EMPTY_CLI_CONFIG,
    CHECKPOINT_DISABLE: "1",
    TF_IN_AUTOMATION: "1",
    TF_INPUT: "0",
    ...extra,
  };
}

/** Runs `terraform <args>` and resolves with its output. */
export function runTerraform(
  args: readonly string[],
  options: RunTerraformOptions,
): Promise<TerraformRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("terraform", [...args], {
      cwd: options.cwd,
      env: terraformEnvironment(options.env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const run: TerraformRun = {
        args,
        exitCode: code ?? -1,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      };
      if (run.exitCode !== 0 && options.check !== false) {
        reject(new TerraformError(run, options.cwd));
      } else {
        resolve(run);
      }
    });
  });
}

/** A Terraform command that failed; the message carries Terraform's own error text. */
export class TerraformError extends Error {
  /** Diagnostics of a `-json` run (empty for commands without `-json`). */
  readonly diagnostics: Diagnostic[];

  constructor(
    readonly run: TerraformRun,
    readonly cwd: string,
  ) {
    super(
      `terraform ${run.args.join(" ")} failed (exit ${run.exitCode}) in ${cwd}:\n` +
        describeFailure(run),
    );
    this.name = "TerraformError";
    this.diagnostics = diagnosticsFromStream(run.stdout);
  }
}

/** Error diagnostics from a `-json` run, else the raw stderr. */
function describeFailure(run: TerraformRun): string {
  const errors = diagnosticsFromStream(run.stdout)
    .filter((d) => d.severity === "error")
    .map((d) => `Error: ${d.summary}${d.detail ? `: ${d.detail}` : ""}`);
  return errors.length > 0 ? errors.join("\n") : (run.stderr || run.stdout).trim();
}

const checkedPaths = new Map<string, string>();

/**
 * Environment variable carrying a check already made for the whole run (jest's globalSetup):
 * `{"path": PATH searched, "version": found}`. Saves every test file a `terraform version`.
 */
export const CHECKED_TERRAFORM_ENV = "CODER_CDKTF_TEST_TERRAFORM";

/** The version a check for the whole run found on `searchPath`, if it searched that PATH. */
function checkedForRun(searchPath: string): string | undefined {
  const recorded = process.env[CHECKED_TERRAFORM_ENV];
  if (!recorded) return undefined;
  try {
    const parsed = JSON.parse(recorded) as { path?: unknown; version?: unknown };
    return parsed.path === searchPath &&
      typeof parsed.version === "string" &&
      compareVersions(parsed.version, MINIMUM_TERRAFORM_VERSION) >= 0
      ? parsed.version
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Makes sure a recent enough `terraform` is on PATH and returns its version. Throws (never
 * skips) so a machine without Terraform fails the plan tests loudly.
 */
export async function requireTerraform(options: RequireTerraformOptions = {}): Promise<string> {
  const searchPath = options.path ?? process.env.PATH ?? "";
  const cached = checkedPaths.get(searchPath) ?? checkedForRun(searchPath);
  if (cached) return cached;
  const version = await terraformVersion(searchPath);
  if (!version || compareVersions(version, MINIMUM_TERRAFORM_VERSION) < 0) {
    const found = version ? `found ${version}` : "terraform was not found";
    throw new Error(
      `Terraform >= ${MINIMUM_TERRAFORM_VERSION.replace(/\.0$/, "")} is required on PATH to run ` +
        `the plan tests (${found}; install it from HashiCorp's releases and put it on PATH)`,
    );
  }
  checkedPaths.set(searchPath, version);
  return version;
}

function terraformVersion(searchPath: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn("terraform", ["version", "-json"], {
      env: { ...terraformEnvironment(), PATH: searchPath },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.on("error", () => resolve(undefined));
    child.on("close", (code) => {
      if (code !== 0) return resolve(undefined);
      try {
        const parsed = JSON.parse(out) as { terraform_version?: unknown };
        resolve(
          typeof parsed.terraform_version === "string" ? parsed.terraform_version : undefined,
        );
      } catch {
        resolve(undefined);
      }
    });
  });
}

/** Compares dotted numeric versions ("1.11.4" vs "1.5.0"); pre-release suffixes are ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split("-")[0]
      .split(".")
      .map((n) => Number.parseInt(n, 10) || 0);
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
