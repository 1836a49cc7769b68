/**
 * The provider lock file a push writes into the folder it uploads. Coder's provisioners cache
 * providers per template version only when the pushed folder has a `.terraform.lock.hcl`;
 * without one (or with `--ignore-lockfile`) every build downloads them again (coder/coder
 * #7316: about 2 s against 8 s a build). Synth never reaches the network, so push writes it:
 * `terraform providers lock -platform=linux_amd64 -platform=linux_arm64` for the template's
 * `required_providers` bounds.
 *
 * It runs in a scratch folder that holds only those bounds: in the synthesized folder itself
 * Terraform would first want every module installed (`registry.coder.com` downloads), and it
 * must leave no `.terraform/` behind in what is uploaded. A provider that is not on the
 * public registry is left out of the lock (the command takes the addresses to lock), so
 * Coder's provisioner installs it as its own CLI configuration says on each build, as before,
 * and the others are cached. When the lock cannot be written (no terraform, the registry
 * unreachable), the push says so in one line and goes on as before, with `--ignore-lockfile`.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { findOnPath } from "../coder-cli";
import { TERRAFORM_LOCK_FILE } from "../template-push";

/** The platforms Coder's provisioners run on: the lock holds checksums for both. */
export const LOCK_PLATFORMS: readonly string[] = ["linux_amd64", "linux_arm64"];

/** The registry a provider source without a host is on. */
const DEFAULT_REGISTRY = "registry.terraform.io";

/**
 * Providers the templates use that are not published on the public registry, with where
 * they come from instead: the lock leaves them out.
 */
export const UNPUBLISHED_PROVIDERS: Readonly<Record<string, string>> = {
  "registry.terraform.io/deepspacecartel/devcontainer-builder":
    "the devcontainer-builder provider is installed on the provisioners by the operator (a filesystem or network mirror in their Terraform CLI configuration)",
};

/** How long `terraform providers lock` may take: it downloads each provider for each platform. */
const LOCK_TIMEOUT_MS = 300_000;

/** A required_providers entry as synthesized. */
interface RequiredProvider {
  readonly source?: string;
  readonly version?: string;
}

/** What the lock step runs. */
export interface ProviderLockPlan {
  /** argv of `terraform providers lock …` (without the executable). */
  readonly args: readonly string[];
  /** The fully qualified addresses locked, in name order. */
  readonly locked: readonly string[];
  /** Those left out, with why ({@link UNPUBLISHED_PROVIDERS}). */
  readonly leftOut: readonly string[];
  /** The template's `terraform.required_providers`, as the scratch folder declares them. */
  readonly requiredProviders: Readonly<Record<string, RequiredProvider>>;
}

/** `coder/coder` → `registry.terraform.io/coder/coder`; a source with a host keeps it. */
export function providerAddress(source: string): string {
  const parts = source.toLowerCase().split("/");
  return parts.length === 3 ? parts.join("/") : `${DEFAULT_REGISTRY}/${parts.join("/")}`;
}

/**
 * The lock step for a synthesized template (its Terraform JSON model), or undefined when it
 * requires no provider that could be locked. `mirror` is the operator's provider mirror: a
 * folder (`-fs-mirror`) or an https:// URL (`-net-mirror`) consulted instead of the registry.
 */
export function planProviderLock(
  model: Readonly<Record<string, unknown>>,
  mirror?: string,
  pins: Readonly<Record<string, string>> = {},
): ProviderLockPlan | undefined {
  const terraform = (model.terraform ?? {}) as { required_providers?: unknown };
  const declared = (terraform.required_providers ?? {}) as Record<string, RequiredProvider>;
  // A release the operator pins (templates.<id>.providers; synth checked the bound) is the
  // one locked: a bare version is an exact constraint.
  const requiredProviders = Object.fromEntries(
    Object.entries(declared).map(([name, req]) => [
      name,
      pins[name] === undefined ? req : { ...req, version: pins[name] },
    ]),
  );
  const addresses = Object.keys(requiredProviders)
    .sort()
    .map((name) => providerAddress(requiredProviders[name].source ?? `hashicorp/${name}`));
  const locked = addresses.filter((a) => !Object.hasOwn(UNPUBLISHED_PROVIDERS, a));
  if (locked.length === 0) return undefined;
  const mirrorArgs =
    mirror === undefined
      ? []
      : /^https:\/\//.test(mirror)
        ? [`-net-mirror=${mirror}`]
        : [`-fs-mirror=${path.resolve(mirror)}`];
  return {
    args: [
      "providers",
      "lock",
      ...mirrorArgs,
      ...LOCK_PLATFORMS.map((p) => `-platform=${p}`),
      ...locked,
    ],
    locked,
    leftOut: addresses.filter((a) => !locked.includes(a)),
    requiredProviders,
  };
}

/** How a lock step ended: the file written, or why not (one line). */
export type ProviderLockOutcome =
  { readonly written: true } | { readonly written: false; readonly reason: string };

/**
 * Runs the lock in a scratch folder and, when it succeeds, copies `.terraform.lock.hcl` into
 * `dir`. Never throws for a failed lock: the push goes on without one.
 */
export function writeProviderLock(
  plan: ProviderLockPlan,
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
): ProviderLockOutcome {
  const terraform = findOnPath("terraform", env);
  if (terraform === undefined) return { written: false, reason: "terraform is not on PATH" };
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "coder-cdktf-lock-"));
  try {
    fs.writeFileSync(
      path.join(scratch, "versions.tf.json"),
      JSON.stringify({ terraform: { required_providers: plan.requiredProviders } }, null, 2) + "\n",
    );
    const run = spawnSync(terraform, ["-chdir=" + scratch, ...plan.args, "-no-color"], {
      encoding: "utf8",
      env: { ...env, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" },
      timeout: LOCK_TIMEOUT_MS,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const written = path.join(scratch, TERRAFORM_LOCK_FILE);
    if (run.error === undefined && run.status === 0 && fs.existsSync(written)) {
      fs.copyFileSync(written, path.join(dir, TERRAFORM_LOCK_FILE));
      return { written: true };
    }
    return { written: false, reason: failureReason(run.error, `${run.stderr}\n${run.stdout}`) };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** One line saying why `terraform providers lock` failed, in Terraform's words where it has them. */
function failureReason(error: Error | undefined, output: string): string {
  if (error !== undefined) {
    return /ETIMEDOUT/.test(error.message)
      ? `terraform providers lock did not finish in ${LOCK_TIMEOUT_MS / 1000} s`
      : `terraform providers lock could not run (${error.message})`;
  }
  const unreachable = /could not connect to ([^\s:]+)/.exec(output.replace(/\s+/g, " "));
  if (unreachable !== null) return `the registry ${unreachable[1]} could not be reached`;
  const summary = /^[│ ]*Error: (.+)$/m.exec(output)?.[1]?.trim();
  return `terraform providers lock failed${summary === undefined ? "" : ` (${summary.slice(0, 300)})`}`;
}
