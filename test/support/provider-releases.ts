/**
 * The two ends of each template's provider bounds, as schema files the plan harness serves
 * (TerraformHarness `schemaFiles`): the oldest release a template's `required_providers`
 * admits, derived from the vendored schemas and the feature table (releaseSchema), and the
 * newest release known, which the harness serves by default.
 *
 * With CODER_CDKTF_PROVIDER_RELEASE=oldest, test/support/harness-setup.ts makes every plan of
 * a jest run use the oldest end of the template it plans (`.ci/run` runs the plan tests so
 * once more); test/templates/provider-releases.test.ts checks both ends in every run.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import {
  compareVersions,
  newestRelease,
  PROVIDER_ADDRESSES,
  providerLowerBound,
} from "../../lib/constructs/provider-features";
import { releaseSchema } from "../../lib/constructs/provider-releases";
import { SYNTHESIZED_DIR_ENV } from "./synth-template";

/** Which end of the bounds a jest run plans against (unset: the newest). */
export const PROVIDER_RELEASE_ENV = "CODER_CDKTF_PROVIDER_RELEASE";

export type ReleaseEnd = "oldest" | "newest";

type RequiredProviders = Record<string, { version?: string }>;

/** The providers the bounds are computed for, with the release at `end` of each template's bound. */
export function releasesAt(
  required: RequiredProviders,
  end: ReleaseEnd,
  needs: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const releases: Record<string, string> = {};
  for (const provider of Object.keys(PROVIDER_ADDRESSES)) {
    const constraint = required[provider]?.version;
    if (constraint === undefined) continue;
    const declared = /^>= (\d+\.\d+\.\d+)/.exec(constraint)?.[1];
    if (declared === undefined) throw new Error(`${provider}: no lower bound in "${constraint}"`);
    const need = needs[provider];
    const lower = need !== undefined && compareVersions(need, declared) > 0 ? need : declared;
    const newest = newestRelease(provider);
    if (compareVersions(lower, newest) > 0) {
      throw new Error(
        `${provider}: the bound ${constraint} admits no known release (newest ${newest})`,
      );
    }
    releases[provider] = end === "oldest" ? lower : newest;
  }
  return releases;
}

/** Where this run keeps the derived schema documents. */
function schemaDir(): string {
  const dir = path.join(process.env[SYNTHESIZED_DIR_ENV] ?? os.tmpdir(), "release-schemas");
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The schema file of `provider` at `version`, written once per run (atomically: workers share it). */
export function releaseSchemaFile(provider: string, version: string): string {
  const file = path.join(schemaDir(), `${provider}-${version}.schema.json`);
  if (!fs.existsSync(file)) {
    const partial = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(partial, JSON.stringify(releaseSchema(provider, version)));
    fs.renameSync(partial, file);
  }
  return file;
}

/** The schema files of the releases at `end` of a configuration's bounds. */
export function schemaFilesAt(
  required: RequiredProviders,
  end: ReleaseEnd,
  needs: Readonly<Record<string, string>> = {},
): string[] {
  return Object.entries(releasesAt(required, end, needs)).map(([provider, version]) =>
    releaseSchemaFile(provider, version),
  );
}

/**
 * What {@link schemaFilesAt} gives the template in `dir` (its cdk.tf.json), if it has one. The
 * oldest end is never below what cdk.tf.json needs by the feature table: an earlier release's
 * saved configuration (test/upgrade, the 4f52dfb fixture) declared bounds before the table
 * computed them, and a release it never ran on says nothing about today's templates (whose
 * declared bound is exactly that need: test/constructs/provider-features.test.ts).
 */
export function schemaFilesForDir(dir: string, end: ReleaseEnd): string[] | undefined {
  const file = path.join(dir, "cdk.tf.json");
  if (!fs.existsSync(file)) return undefined;
  const config = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown> & {
    terraform?: { required_providers?: RequiredProviders };
  };
  const needs = Object.fromEntries(
    Object.keys(PROVIDER_ADDRESSES).map((p) => [p, providerLowerBound(p, config)]),
  );
  return schemaFilesAt(config.terraform?.required_providers ?? {}, end, needs);
}
