/**
 * Workspace states from a Coder deployment, read-only: `coder list --all -o json` finds a
 * template's workspaces, `coder state pull <owner/name>` prints each one's state. The state
 * is read from the CLI's stdout into memory and never printed (it holds tokens); a failure
 * is reported with the CLI's own last lines of stderr.
 */
import { spawn } from "node:child_process";
import { coderVersionOf } from "../coder-cli";
import { atLeast, formatCoderVersion, type CoderVersion } from "../coder-version";
import type { StateSource } from "./plan-upgrade";

/**
 * The first CLI generation with `coder state pull <workspace>` and `coder list -o json`:
 * Coder v1's CLI (`coder workspaces …`) has neither.
 */
export const STATE_PULL_SINCE: CoderVersion = { major: 2, minor: 0, patch: 0 };

/** Seconds one CLI call may take (a state pull downloads the state from the server). */
const CLI_TIMEOUT_MS = 120_000;

/** A CLI that cannot serve this command; the message says what to do. */
export class CoderCliError extends Error {}

/**
 * Refuses a CLI older than {@link STATE_PULL_SINCE}. A CLI whose version cannot be told (a
 * development build) is tried: its first failure is reported as it comes.
 */
export function checkStateCli(coder: string, env: NodeJS.ProcessEnv = process.env): void {
  const version = coderVersionOf(coder, env);
  if (version !== undefined && !atLeast(version, STATE_PULL_SINCE)) {
    throw new CoderCliError(
      `${coder} is coder ${formatCoderVersion(version)}; reading workspace states needs ` +
        `${formatCoderVersion(STATE_PULL_SINCE)} or later (\`coder state pull\`). Install your ` +
        `deployment's CLI from <CODER_URL>/bin/, or pass saved states with --state.`,
    );
  }
}

/** What one CLI run printed. */
interface CliRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

function runCli(coder: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(coder, [...args], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: CLI_TIMEOUT_MS,
    });
    const out: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-8192);
    });
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({
        exitCode: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out).toString("utf8"),
        stderr,
      }),
    );
  });
}

/** The CLI's failure in a line or a few: its exit status and the last lines it wrote to stderr. */
function failure(what: string, run: CliRun): string {
  const lines = run.stderr
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "")
    .slice(-6);
  return `${what} exited with ${run.exitCode}${lines.length > 0 ? `:\n  ${lines.join("\n  ")}` : " and printed nothing on stderr"}`;
}

/** The state source of workspace `workspace` (`owner/name`) through `coder state pull`. */
export function pulledState(
  coder: string,
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
): StateSource {
  return {
    source: workspace,
    workspace,
    read: async () => {
      const run = await runCli(coder, ["state", "pull", workspace], env);
      if (run.exitCode !== 0)
        throw new CoderCliError(failure(`coder state pull ${workspace}`, run));
      return run.stdout;
    },
  };
}

/** `owner/name` of every workspace of the Coder template `templateName` (`coder list --all`). */
export async function templateWorkspaces(
  coder: string,
  templateName: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const run = await runCli(coder, ["list", "--all", "--output", "json"], env);
  if (run.exitCode !== 0) throw new CoderCliError(failure("coder list --all --output json", run));
  let listed: unknown;
  try {
    listed = JSON.parse(run.stdout);
  } catch {
    throw new CoderCliError(
      "coder list --all --output json printed no JSON: this CLI cannot list workspaces for --all; name them with --workspace",
    );
  }
  if (!Array.isArray(listed)) {
    throw new CoderCliError("coder list --all --output json printed no list of workspaces");
  }
  return listed
    .filter((w): w is Record<string, unknown> => typeof w === "object" && w !== null)
    .filter((w) => w.template_name === templateName)
    .map((w) => `${String(w.owner_name)}/${String(w.name)}`)
    .sort();
}
