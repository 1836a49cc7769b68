/**
 * Running real shell scripts from tests: a hermetic environment, a PATH made of chosen host
 * tools plus fake executables that record their argv, temp dirs, and running as an
 * unprivileged user (tests run as root, for whom chmod 000 hides nothing), from a copy of the
 * script that user can read wherever the checkout is.
 */
import { spawn } from "node:child_process";
import {
  accessSync,
  chmodSync,
  constants,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, delimiter, join } from "node:path";

/** A user id and group id to run a script as. */
export interface UnprivilegedUser {
  readonly uid: number;
  readonly gid: number;
}

/** Options for {@link runScript}. */
export interface RunScriptOptions {
  /** The script file to run. */
  readonly script: string;
  /** The complete environment: nothing is inherited from the test process. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Interpreter the script is handed to: a path, or a name found on the host PATH.
   * @default $SCRIPT_TEST_SHELL, else "sh" (e.g. `SCRIPT_TEST_SHELL=bash npx jest …` to try bash)
   */
  readonly shell?: string;
  /** Arguments after the script path. @default [] */
  readonly args?: readonly string[];
  /** Working directory. @default the process's own */
  readonly cwd?: string;
  /** Data written to the script's stdin, which is then closed. @default none: /dev/null */
  readonly stdin?: string;
  /** The script is killed (SIGKILL) after this long. @default 20000 */
  readonly timeoutMs?: number;
  /**
   * Run as this user. When the tests run as root this goes through `setpriv`, so that file
   * permissions apply; otherwise the script simply runs as the current user.
   * @default undefined (the current user)
   */
  readonly asUser?: UnprivilegedUser;
}

/** What one script run did. */
export interface ScriptRun {
  /** Exit status, or null when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended it, or null. */
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr interleaved in the order they arrived. */
  readonly output: string;
  readonly durationMs: number;
}

/** The absolute path of `name` on the test process's PATH; throws when it is not there. */
export function hostTool(name: string): string {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  throw new Error(`${name} is not installed on this machine (needed to run the script tests)`);
}

/**
 * Fills `dir` with symlinks to the named host tools, so that a PATH made of it offers exactly
 * those: a test then proves what a script needs, and can leave a tool out (no git, no curl).
 */
export function linkHostTools(dir: string, tools: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  for (const tool of tools) {
    const link = join(dir, tool);
    if (!existsSync(link)) symlinkSync(hostTool(tool), link);
  }
  return dir;
}

/** Quotes `value` as one POSIX shell word. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Writes an executable `#!/bin/sh` script named `name` into `dir`. */
export function writeFakeExecutable(dir: string, name: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

// Arguments are separated by ASCII unit separators, calls by record separators, so that any
// argument (spaces, quotes, newlines) comes back intact.
const ARG_END = "\x1f";
const CALL_END = "\x1e";

/**
 * Writes a fake executable that appends its argv to `callLog`, then runs `body` (shell code
 * that sees the same "$@"). @default body: exit 0
 */
export function writeRecordingExecutable(
  dir: string,
  name: string,
  callLog: string,
  body = "exit 0",
): string {
  const record =
    `for arg in "$@"; do printf '%s\\037' "$arg"; done >>${shellQuote(callLog)}\n` +
    `printf '\\036' >>${shellQuote(callLog)}\n`;
  return writeFakeExecutable(dir, name, record + body);
}

/** The argv of every call a recording executable logged, oldest first. */
export function readRecordedCalls(callLog: string): string[][] {
  if (!existsSync(callLog)) return [];
  return readFileSync(callLog, "utf8")
    .split(CALL_END)
    .slice(0, -1)
    .map((call) => call.split(ARG_END).slice(0, -1));
}

/** Temp dirs for one test file; `cleanup()` removes all of them (call it in afterAll). */
export interface TempDirs {
  make(prefix: string): string;
  cleanup(): void;
}

/** Creates temp dirs readable by every user, so that scripts run via `asUser` can enter them. */
export function tempDirs(): TempDirs {
  const made: string[] = [];
  return {
    make(prefix: string): string {
      const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
      chmodSync(dir, 0o755);
      made.push(dir);
      return dir;
    },
    cleanup(): void {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs a script for real and collects its output. Never throws for a failing script. */
export function runScript(options: RunScriptOptions): Promise<ScriptRun> {
  const shellName = options.shell ?? process.env.SCRIPT_TEST_SHELL ?? "sh";
  const shell = shellName.includes("/") ? shellName : hostTool(shellName);
  const scriptArgs = [options.script, ...(options.args ?? [])];
  let command = shell;
  let argv = scriptArgs;
  const user = options.asUser;
  let cwd = options.cwd;
  let copy: string | undefined;
  if (user && process.getuid?.() === 0) {
    // The user may not reach the checkout (a clone under /root, whose mode is 0700): the
    // script runs from a copy in a folder every user can enter, and from there by default.
    copy = mkdtempSync(join(tmpdir(), "run-script-"));
    chmodSync(copy, 0o755);
    const script = join(copy, basename(options.script));
    copyFileSync(options.script, script);
    chmodSync(script, 0o755);
    scriptArgs[0] = script;
    cwd ??= copy;
    command = hostTool("setpriv");
    argv = [
      `--reuid=${user.uid}`,
      `--regid=${user.gid}`,
      "--clear-groups",
      "--",
      shell,
      ...scriptArgs,
    ];
  }
  const removeCopy = () => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  };
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      cwd,
      env: { ...options.env },
      // Without input, stdin is /dev/null, as for a script started by the Coder agent.
      stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let output = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20000);
    child.on("error", (error) => {
      clearTimeout(timer);
      removeCopy();
      reject(error);
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      removeCopy();
      resolve({ exitCode, signal, stdout, stderr, output, durationMs: Date.now() - started });
    });
    if (child.stdin) {
      // A script may exit without reading its input.
      child.stdin.on("error", () => undefined);
      child.stdin.end(options.stdin);
    }
  });
}
