import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";

/** Where the packer-builder template keeps the scripts it embeds. */
export const SCRIPTS_DIR = resolve(__dirname, "../../../../templates/packer-builder/scripts");

/** What one script run produced. */
export interface ScriptRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Process id of the bash that ran the script (an `exec` keeps it). */
  readonly pid: number;
  readonly durationMs: number;
}

export interface RunOptions {
  /** Extra environment, on top of PATH, HOME and TMPDIR of the sandbox. @default {} */
  readonly env?: Readonly<Record<string, string>>;
  /** Real commands to hide from PATH, to test "not installed". @default [] */
  readonly hide?: readonly string[];
  /** Hard limit for the run, so a broken script cannot hang the suite. @default 20000 */
  readonly timeoutMs?: number;
}

const RECORD_SEPARATOR = "\x1e";
const SYSTEM_BIN_DIRS = ["/usr/local/bin", "/usr/bin", "/bin"];
const BASH = findOnPath("bash");

/**
 * A temp directory to run a real script in: a HOME, a TMPDIR, and a bin/ that
 * comes first on PATH for fake executables. Every fake records its argv, one
 * call per record, so tests can assert exactly what a script ran.
 */
export class ScriptSandbox {
  readonly root = mkdtempSync(join(tmpdir(), "pb-scripts-"));
  readonly home = this.mkdir("home");
  readonly tmp = this.mkdir("tmp");
  private readonly bin = this.mkdir("bin");
  private readonly calls = this.mkdir("calls");

  /** Creates a directory below the sandbox root and returns its path. */
  mkdir(rel: string): string {
    const dir = join(this.root, rel);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** Writes a file below the sandbox root and returns its path. */
  write(rel: string, content: string, mode = 0o644): string {
    const file = join(this.root, rel);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, content);
    chmodSync(file, mode);
    return file;
  }

  /**
   * Puts an executable `name` first on PATH. It records its argv, then runs the
   * bash `body` with the original arguments. `$CALLS_DIR` is the record folder.
   */
  fake(name: string, body = "exit 0"): void {
    const log = join(this.calls, name);
    this.write(
      join("bin", name),
      [
        // The bash found once, not `env bash`: one process less per call of a fake.
        `#!${BASH}`,
        `{ printf '%s\\0' "$@"; printf '${RECORD_SEPARATOR}'; } >>'${log}'`,
        `CALLS_DIR='${this.calls}'`,
        body,
        "",
      ].join("\n"),
      0o755,
    );
  }

  /** The argv of every call of fake `name`, in call order. */
  callsOf(name: string): string[][] {
    const log = join(this.calls, name);
    if (!existsSync(log)) return [];
    return readFileSync(log, "utf8")
      .split(RECORD_SEPARATOR)
      .slice(0, -1)
      .map((record) => record.split("\0").slice(0, -1));
  }

  /** Runs `script` (a file) with bash, as the template does, and waits for it. */
  run(script: string, options: RunOptions = {}): ScriptRun {
    const pathDirs = [this.bin, this.systemBin(options.hide ?? [])];
    const started = Date.now();
    const result = spawnSync(BASH, [script], {
      cwd: this.root,
      encoding: "utf8",
      timeout: options.timeoutMs ?? 20000,
      env: {
        PATH: pathDirs.join(delimiter),
        HOME: this.home,
        TMPDIR: this.tmp,
        LANG: "C.UTF-8",
        ...options.env,
      },
    });
    if (result.error) throw result.error;
    return {
      status: result.status,
      signal: result.signal,
      stdout: result.stdout,
      stderr: result.stderr,
      pid: result.pid,
      durationMs: Date.now() - started,
    };
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  /** The system directories, or a folder of links to their programs minus the hidden ones. */
  private systemBin(hide: readonly string[]): string {
    if (hide.length === 0) return SYSTEM_BIN_DIRS.join(delimiter);
    const dir = this.mkdir(`system-bin-${hide.join("-")}`);
    for (const sysDir of SYSTEM_BIN_DIRS) {
      if (!existsSync(sysDir)) continue;
      for (const name of readdirSync(sysDir)) {
        const link = join(dir, name);
        if (hide.includes(name) || existsSync(link)) continue;
        symlinkSync(join(sysDir, name), link);
      }
    }
    return dir;
  }
}

/**
 * The script text with `NAME='value'` lines inserted after its shebang line,
 * the way the template embeds a script with its settings.
 */
export function withAssignments(script: string, vars: Readonly<Record<string, string>>): string {
  const [shebang, ...rest] = readFileSync(script, "utf8").split("\n");
  const assignments = Object.entries(vars).map(
    ([name, value]) => `${name}='${value.replace(/'/g, `'\\''`)}'`,
  );
  return [shebang, ...assignments, ...rest].join("\n");
}

function findOnPath(name: string): string {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, name);
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${name} is not on PATH`);
}
