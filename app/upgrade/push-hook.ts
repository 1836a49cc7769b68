/**
 * `npm run push -- --check-upgrade [--allow-data-loss]`: before the push, the version is
 * planned on the state of every workspace of the template (`plan-upgrade --all`), the report
 * goes to stderr, and a version that would lose a workspace's data is not pushed unless
 * `--allow-data-loss` is given. scripts/commands/push.ts only parses the two options
 * ({@link UPGRADE_CHECK_OPTIONS}) and calls {@link checkUpgradeBeforePush}.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CoderCliError } from "./coder-states";
import { losesData, type UpgradeTarget } from "./plan-upgrade";
import { EXIT_DATA_LOSS, EXIT_FAILED, renderUpgradeText } from "./render-upgrade";
import { checkUpgrade } from "./upgrade-check";
import { redact } from "./redact";

/** The push options of the check, for `parseCommandLine`. */
export const UPGRADE_CHECK_OPTIONS = {
  "check-upgrade": { type: "boolean", default: false },
  "allow-data-loss": { type: "boolean", default: false },
} as const;

/** The usage text of the options. */
export const UPGRADE_CHECK_USAGE = "[--check-upgrade [--allow-data-loss]]";

export interface UpgradeCheckRequest {
  readonly checkUpgrade: boolean;
  readonly allowDataLoss: boolean;
}

/** The request in parsed push options. */
export function upgradeCheckRequest(values: {
  readonly "check-upgrade"?: boolean;
  readonly "allow-data-loss"?: boolean;
}): UpgradeCheckRequest {
  return {
    checkUpgrade: values["check-upgrade"] === true,
    allowDataLoss: values["allow-data-loss"] === true,
  };
}

/**
 * Runs the check when it was asked for. Resolves to the exit status the push should stop
 * with, or undefined to go on: no check asked, no workspace loses data, or the loss is allowed.
 * A workspace that cannot be planned stops the push too: its fate is unknown.
 */
export async function checkUpgradeBeforePush(
  template: UpgradeTarget,
  request: UpgradeCheckRequest,
  options: { readonly variablesFile?: string; readonly stderr?: (text: string) => void } = {},
): Promise<number | undefined> {
  if (!request.checkUpgrade) return undefined;
  const write = options.stderr ?? ((text: string) => void process.stderr.write(text));
  // Every line the check writes, the CLI's own errors included, goes through the redaction.
  const say = (text: string) => write(redact(text));
  say(`checking what this version does to every workspace of ${template.name} (--check-upgrade)\n`);
  const report = await inPrivateTemp(() =>
    checkUpgrade(template, { all: true, variablesFile: options.variablesFile }),
  ).catch((e: unknown) => {
    if (e instanceof CoderCliError) return e;
    throw e;
  });
  if (report instanceof CoderCliError) {
    say(
      `push refused: the upgrade check could not read the workspaces' states: ${report.message}\n`,
    );
    return EXIT_FAILED;
  }
  say(renderUpgradeText(report));
  if (losesData(report)) {
    if (request.allowDataLoss) {
      say("--allow-data-loss: pushing although the workspaces above lose data\n");
      return undefined;
    }
    say(
      "push refused: this version would lose the data of the workspaces above. Add a `moved` " +
        "block or undo the change (docs/upgrades.md), or push with --allow-data-loss.\n",
    );
    return EXIT_DATA_LOSS;
  }
  if (report.workspaces.some((w) => "error" in w)) {
    say(
      "push refused: some workspaces could not be planned (above); fix that, or push without --check-upgrade\n",
    );
    return EXIT_FAILED;
  }
  return undefined;
}

/**
 * Runs `fn` with every temp folder it makes inside one private folder, removed afterwards and
 * at exit (Ctrl-C included): the plan harness's work dirs hold workspace states, and so tokens.
 */
async function inPrivateTemp<T>(fn: () => Promise<T>): Promise<T> {
  const previous = process.env.TMPDIR;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "coder-cdktf-upgrade-check-"));
  const remove = () => removeTreeSync(dir);
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.on("exit", remove);
  // `on`, not `once`: plans in parallel may each pass on a Ctrl-C, and a second signal
  // without a handler would kill the process before the folder is removed.
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.env.TMPDIR = dir;
  try {
    return await fn();
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    process.off("exit", remove);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    remove();
  }
}

/**
 * Removes `dir` and all it holds, again while it fails with ENOTEMPTY: on a Ctrl-C a child
 * (Terraform winding down, the mock provider) may still add files to its work dir while the
 * tree is removed, and a plain rmSync then throws, which turned exit 130 into 1. Once its
 * folder is gone the child cannot add anything, so a few tries are enough. The same loop as
 * scripts/run-bundled.js's, which cannot import app/ before the bundle loads.
 */
function removeTreeSync(dir: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOTEMPTY" || attempt === 50) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}
