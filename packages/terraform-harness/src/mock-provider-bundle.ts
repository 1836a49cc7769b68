/**
 * The mock provider's process runs one file that esbuild bundled from mock-provider/ (and what
 * it imports): Node 20 cannot run the TypeScript sources, and one bundle also spares the
 * process resolving and loading some twenty modules at each start. The bundle is written
 * when a source is newer than it, through a temp file renamed into place, so parallel jest
 * workers (and a Terraform that runs it as a plugin) never read half a file.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { HARNESS_SOURCE_DIR, harnessFile } from "./package-files";

/** Where the bundle is written (packages/terraform-harness/build, ignored by git). */
export const MOCK_PROVIDER_BUNDLE = join(HARNESS_SOURCE_DIR, "..", "build", "mock-provider.js");

const ENTRY = harnessFile("mock-provider", "provider.ts");

/** What the bundle is made of: it is written again when any of these is newer than it. */
const INPUTS = [
  harnessFile("mock-provider"),
  harnessFile("package-files.ts"),
  join(HARNESS_SOURCE_DIR, "..", "package.json"),
  // The versions of protobufjs and @msgpack/msgpack it bundles.
  join(HARNESS_SOURCE_DIR, "..", "..", "..", "package-lock.json"),
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (newest, entry) => Math.max(newest, newestMtime(join(path, entry))),
    stat.mtimeMs,
  );
}

let checked = false;

/**
 * The mock provider's executable (`node <it> serve`, or a terraform-provider-<name> symlink
 * to it), bundled first when a source changed. Checked once per process.
 */
export function mockProviderEntry(): string {
  if (checked) return MOCK_PROVIDER_BUNDLE;
  const built = existsSync(MOCK_PROVIDER_BUNDLE) ? statSync(MOCK_PROVIDER_BUNDLE).mtimeMs : -1;
  if (built < Math.max(...INPUTS.map(newestMtime))) writeBundle();
  checked = true;
  return MOCK_PROVIDER_BUNDLE;
}

function writeBundle(): void {
  // Loaded from the harness's package at run time, not imported: a command that bundles the
  // harness (scripts/preview.js) must not bundle esbuild, whose binary it finds beside it.
  const esbuild = createRequire(harnessFile("..", "package.json"))(
    "esbuild",
  ) as typeof import("esbuild");
  const result = esbuild.buildSync({
    entryPoints: [ENTRY],
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    write: false,
    logLevel: "error",
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild wrote nothing for ${ENTRY}`);
  mkdirSync(dirname(MOCK_PROVIDER_BUNDLE), { recursive: true });
  const temp = `${MOCK_PROVIDER_BUNDLE}.${process.pid}.tmp`;
  writeFileSync(temp, output.contents);
  // Executable: Terraform runs it as a plugin through a terraform-provider-<name> symlink.
  chmodSync(temp, 0o755);
  renameSync(temp, MOCK_PROVIDER_BUNDLE);
}
