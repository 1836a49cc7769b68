/**
 * Runs `npm run push` / `npm run promote` the way npm runs them (scripts/push.js,
 * scripts/promote.js: the commands bundled) in a temp folder, against a fake `coder`
 * (fake-coder.sh: records its argv and the folder it was given, and refuses the flags its
 * release lacks) and a fake `git` (fake-git.sh) on PATH, with the real `terraform` beside
 * them and every https request going to a closed port (HTTPS_PROXY): push's provider lock
 * never reaches a registry, whatever the machine's network, unless a test gives it a mirror.
 */
import { spawnSync, type SpawnSyncReturns } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { projectRoot } from "../../../lib/core/project-root";
import { hostTool } from "../../support/run-script";

/** An HTTPS proxy nothing listens on (port 9, discard): the Terraform registry is unreachable. */
export const UNREACHABLE_PROXY = "http://127.0.0.1:9";

/** The short SHA and subject the fake git reports by default. */
export const SHA = "1a2b3c4";
export const SUBJECT = "Raise the default memory limit";

export interface Call {
  readonly args: string[];
  readonly dir?: string;
  readonly files: string[];
}

export interface FakeCli {
  readonly work: string;
  readonly bin: string;
  /** Built-in defaults but kubernetes's one required variable (namespace). */
  readonly defaultConfig: string;
  /**
   * Runs scripts/<command>.js in a folder of its own, named `name`. Without `--config`,
   * the default config is passed, so a coder-cdktf.jsonc at the project root changes nothing;
   * push also gets `--outdir` in that folder.
   */
  run(
    command: "push" | "promote",
    name: string,
    args: readonly string[],
    env?: Record<string, string>,
  ): SpawnSyncReturns<string> & {
    readonly outdir: string;
    calls(): Call[];
    logExists(): boolean;
  };
  cleanup(): void;
}

export function fakeCli(): FakeCli {
  const root = projectRoot();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "push-test-"));
  const bin = path.join(work, "bin");
  fs.mkdirSync(bin);
  for (const [file, command] of [
    ["fake-coder.sh", "coder"],
    ["fake-git.sh", "git"],
  ]) {
    fs.copyFileSync(path.join(__dirname, file), path.join(bin, command));
    fs.chmodSync(path.join(bin, command), 0o755);
  }
  // Wherever Terraform is installed (/usr/local/bin, /usr/bin), push finds it the same way.
  fs.symlinkSync(hostTool("terraform"), path.join(bin, "terraform"));
  const defaultConfig = path.join(work, "defaults.jsonc");
  fs.writeFileSync(
    defaultConfig,
    `{ "templates": { "kubernetes": { "variables": { "namespace": "coder-workspaces" } }, ` +
      `"devcontainer": {}, "packer-builder": {} } }\n`,
  );
  return {
    work,
    bin,
    defaultConfig,
    run(command, name, args, env = {}) {
      const dir = path.join(work, name);
      fs.mkdirSync(dir);
      const log = path.join(dir, "coder.log");
      const outdir = path.join(dir, "out");
      const config = args.includes("--config") ? [] : ["--config", defaultConfig];
      const extra = command === "push" ? ["--outdir", outdir] : [];
      const result = spawnSync(
        process.execPath,
        [path.join(root, "scripts", `${command}.js`), ...args, ...config, ...extra],
        {
          cwd: dir,
          encoding: "utf8",
          env: {
            PATH: `${bin}:/usr/bin:/bin`,
            HOME: dir,
            CHECKPOINT_DISABLE: "1",
            FAKE_CODER_LOG: log,
            HTTPS_PROXY: UNREACHABLE_PROXY,
            ...env,
          },
        },
      );
      return {
        ...result,
        outdir,
        calls: () => readCalls(log),
        logExists: () => fs.existsSync(log),
      };
    },
    cleanup: () => fs.rmSync(work, { recursive: true, force: true }),
  };
}

function readCalls(log: string): Call[] {
  return fs
    .readFileSync(log, "utf8")
    .split("=== call\n")
    .filter((c) => c !== "")
    .map((chunk) => {
      const lines = chunk.split("\n");
      const field = (prefix: string) =>
        lines.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length));
      return { args: field("arg: "), dir: field("dir: ")[0], files: field("file: ") };
    });
}
