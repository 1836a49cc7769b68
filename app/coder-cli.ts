/**
 * Running the `coder` CLI from our scripts: find it on PATH, run it with its output
 * streamed to the user as it comes, and keep the tail of that output so a failure
 * can be reported with the CLI's own words. The environment is passed through as it
 * is (CODER_URL, CODER_SESSION_TOKEN, CODER_HEADER_COMMAND…) and never printed.
 */
import { spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { formatCoderVersion, parseCoderVersion, type CoderVersion } from "./coder-version";

/** The full path of `command` on PATH, or undefined. */
export function findOnPath(
  command: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, command);
    try {
      if (fs.statSync(candidate).isFile()) {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      }
    } catch {
      // Not here, or not executable: keep looking, as a shell would.
    }
  }
  return undefined;
}

/** Seconds `coder version` may take; it reads nothing from the network. */
const VERSION_TIMEOUT_MS = 30_000;

/**
 * The release of the CLI at `executable` (from `coder version`), or undefined when it
 * cannot be told: the command failed, or printed no release (a development build).
 */
export function coderVersionOf(
  executable: string,
  env: NodeJS.ProcessEnv = process.env,
): CoderVersion | undefined {
  const run = spawnSync(executable, ["version"], {
    encoding: "utf8",
    env,
    timeout: VERSION_TIMEOUT_MS,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (run.error !== undefined || run.status !== 0) return undefined;
  return parseCoderVersion(run.stdout);
}

/** How a streamed run ended. */
export interface StreamedRun {
  readonly exitCode: number;
  /** The last lines the command wrote to stderr (or stdout when stderr was empty), ANSI codes removed. */
  readonly lastLines: readonly string[];
}

/** Lines of output kept for the failure message. */
const TAIL_LINES = 8;

/**
 * Runs `executable args…`, copying its stdout and stderr to ours as they arrive
 * (a push uploads, imports and plans for a while; the user should see that live).
 */
export function runStreaming(
  executable: string,
  args: readonly string[],
  options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<StreamedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, [...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["inherit", "pipe", "pipe"],
    });
    let stdoutTail = "";
    let stderrTail = "";
    const keep = (tail: string, chunk: Buffer) => (tail + chunk.toString("utf8")).slice(-8192);
    child.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      stdoutTail = keep(stdoutTail, chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
      stderrTail = keep(stderrTail, chunk);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const source = stderrTail.trim() !== "" ? stderrTail : stdoutTail;
      resolve({
        exitCode: code ?? (signal ? 128 : 1),
        lastLines: lastLines(source),
      });
    });
  });
}

/** Quotes arguments for a POSIX shell, so a printed command can be pasted as it is. */
export function shellQuote(args: readonly string[]): string {
  return args
    .map((arg) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`))
    .join(" ");
}

function lastLines(text: string): string[] {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")
      .split(/\r?\n/)
      .map((l) => l.trimEnd())
      .filter((l) => l.trim() !== "")
      .slice(-TAIL_LINES)
  );
}

/**
 * One item of a repeatable `coder` flag such as `--var` or `--provisioner-tag`, as the CLI
 * reads it back: it splits each such argument as a line of CSV (Go's encoding/csv), so an
 * unquoted `,` would start another item (`name=a,allow_privileged=true` sets two variables),
 * and a `"` or a line break would fail or cut the value. An item holding any of them is
 * quoted, its quotes doubled; others are passed as they are.
 */
export function coderArrayItem(item: string): string {
  return /[",\r\n]/.test(item) ? `"${item.replace(/"/g, '""')}"` : item;
}

/**
 * `coder version` of the CLI at `executable`, said on stderr (`coder CLI: <path> (v2.24.1)`):
 * the release decides the flags (app/coder-version.ts). `null` when it cannot be told.
 */
export function announceCoderVersion(executable: string): CoderVersion | null {
  const version = coderVersionOf(executable) ?? null;
  const shown = version === null ? "version unknown" : formatCoderVersion(version);
  process.stderr.write(`coder CLI: ${executable} (${shown})\n`);
  return version;
}

/**
 * Runs one `coder` command of a plan, saying what it runs; on failure prints `failure` (what
 * did not happen) with the exit status and the CLI's last lines. Returns the exit status.
 */
export async function runCoderStep(
  executable: string,
  args: readonly string[],
  failure: string,
): Promise<number> {
  process.stderr.write(`running: coder ${shellQuote(args)}\n`);
  const run = await runStreaming(executable, args);
  if (run.exitCode !== 0) {
    process.stderr.write(
      `${failure} (coder ${args.slice(0, args[1] === "versions" ? 3 : 2).join(" ")} exited with ${run.exitCode})` +
        (run.lastLines.length > 0 ? `:\n  ${run.lastLines.join("\n  ")}\n` : "\n"),
    );
  }
  return run.exitCode;
}
