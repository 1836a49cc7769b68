/**
 * Plans and applies shared by the test files of one jest run: a harness call whose template
 * files and inputs are byte for byte those of an earlier call reads that call's result instead
 * of running Terraform again. Several test files start from the same state (a workspace's
 * stopped first build) or plan the same scenario; each such run now happens once per run.
 *
 * The cache lives for one jest run (test/support/global-setup.ts names its directory in
 * {@link RUN_CACHE_ENV}; the teardown removes it), so it never outlives the Terraform binary,
 * the mock provider, the schemas or the stub modules that produced its entries. Only results
 * are stored: a failing run is run again by every call. Debugging settings that want the
 * runs themselves (HARNESS_KEEP_WORKDIRS=1, TFMOCK_LOG) turn it off.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { isRunLeftover } from "./template-workdir";

/** Environment variable naming the run's cache directory. */
export const RUN_CACHE_ENV = "CODER_CDKTF_TEST_RUN_CACHE";

export class RunCache {
  private constructor(private readonly dir: string) {}

  /** The cache of this jest run; none outside jest or while debugging the runs themselves. */
  static forThisRun(): RunCache | undefined {
    const dir = process.env[RUN_CACHE_ENV];
    if (!dir || process.env.HARNESS_KEEP_WORKDIRS === "1" || process.env.TFMOCK_LOG) {
      return undefined;
    }
    return new RunCache(dir);
  }

  /** The cache in `dir` (tests of the cache itself). */
  static at(dir: string): RunCache {
    return new RunCache(dir);
  }

  /**
   * Key of one call: the operation, its inputs (JSON) and every file of the configuration
   * directory (path and bytes), leftovers of earlier runs excepted.
   */
  key(operation: string, configDir: string, inputs: unknown): string {
    const hash = createHash("sha256");
    hash.update(`${operation}\0${JSON.stringify(inputs) ?? ""}`);
    for (const file of configFiles(configDir)) {
      hash.update(`\0${relative(configDir, file)}\0`);
      hash.update(readFileSync(file));
    }
    return hash.digest("hex");
  }

  /** The stored result for `key`, parsed afresh (callers may change what they get). */
  get<T>(key: string): T | undefined {
    const file = join(this.dir, `${key}.json`);
    return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T) : undefined;
  }

  /** Stores a result; written to a temp name and renamed, so readers never see half of it. */
  set(key: string, value: unknown): void {
    mkdirSync(this.dir, { recursive: true });
    const partial = join(this.dir, `${key}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    writeFileSync(partial, JSON.stringify(value));
    renameSync(partial, join(this.dir, `${key}.json`));
  }

  /** The result for `key`, computed (and stored) when there is none yet. */
  async getOrCompute<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const stored = this.get<T>(key);
    if (stored !== undefined) return stored;
    const value = await compute();
    this.set(key, value);
    return value;
  }
}

/** Every file under `dir`, sorted, without the leftovers of earlier runs. */
function configFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (isRunLeftover(path)) continue;
      // Symbolic links count as what they point to, as Terraform reads them.
      const isDirectory = entry.isSymbolicLink()
        ? statSync(path).isDirectory()
        : entry.isDirectory();
      if (isDirectory) walk(path);
      else files.push(path);
    }
  };
  walk(dir);
  return files.sort();
}
