/**
 * Prepares a throw-away Terraform working directory from a synthesized stack directory:
 * copies it, drops the backend cdktf writes, and points registry modules at local stubs
 * (the Coder registry cannot be reached offline).
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { isRecord } from "./json";
import { harnessFile } from "./package-files";

/** Where the stub modules live; one directory per registry module name. */
export const MODULE_STUBS_DIR = harnessFile("module-stubs");

/** Registry host whose modules the harness replaces with stubs. */
const CODER_REGISTRY = "registry.coder.com/";

/** Directory (inside the working dir) the stubs are copied to. */
const STUBS_IN_WORKDIR = ".harness-modules";

/** What {@link prepareWorkdir} produced. */
export interface PreparedWorkdir {
  readonly dir: string;
  /** True when the configuration calls modules, so `terraform init` must run first. */
  readonly hasModules: boolean;
  /**
   * When every module call names a local directory (a stub copied into the workdir, a module
   * batch's `./template`), the module manifest (`.terraform/modules/modules.json`)
   * `terraform get` would write: the harness writes it itself and saves the run (see
   * {@link localModuleManifest}).
   */
  readonly moduleManifest?: string;
  /** Removes the directory (kept when HARNESS_KEEP_WORKDIRS=1, for debugging). */
  cleanup(): void;
}

/**
 * Reads the whole configuration of a directory as Terraform JSON (at least its `module` and
 * `variable` blocks): a project whose synth writes them in `.tf` files, which the harness
 * does not parse, tells the harness through {@link setConfigurationReader}.
 */
export type ConfigurationReader = (dir: string) => Record<string, unknown>;

/** By default the harness knows only the `*.tf.json` files' blocks, which it reads itself. */
let configurationReader: ConfigurationReader = () => ({});

/** Sets how the harness learns the blocks of a directory's `.tf` files (see above). */
export function setConfigurationReader(reader: ConfigurationReader): void {
  configurationReader = reader;
}

/** The configuration of `dir`, as the project's reader gives it. */
export function readConfiguration(dir: string): Record<string, unknown> {
  return configurationReader(dir);
}

/**
 * Where prepareWorkdir records the module calls of the `.tf` files (by name: source as
 * written, version, directory in the workdir), for {@link localModuleManifest}: the calls
 * stay as the template ships them, and the manifest points Terraform at the stubs.
 */
const HCL_CALLS_FILE = join(STUBS_IN_WORKDIR, "calls.json");

/** One module call of a `.tf` file, as {@link HCL_CALLS_FILE} records it. */
interface HclCall {
  readonly Source: string;
  readonly Version?: string;
  readonly Dir: string;
}

/** Another run's init, state or plan: never part of what a harness call works on. */
export function isRunLeftover(path: string): boolean {
  return /(^|\/)(\.terraform|\.terraform\.lock\.hcl|terraform\.tfstate[^/]*|tfplan)$/.test(path);
}

/** Copies `sourceDir` to a fresh temp dir and rewrites its *.tf.json files for offline use. */
export function prepareWorkdir(sourceDir: string): PreparedWorkdir {
  if (!existsSync(sourceDir)) {
    throw new Error(`Terraform configuration directory ${sourceDir} does not exist (synthesized?)`);
  }
  const dir = mkdtempSync(join(tmpdir(), "tf-harness-"));
  cpSync(sourceDir, dir, {
    recursive: true,
    // Never carry over another run's init, state or plan.
    filter: (src) => !isRunLeftover(src),
  });
  const cleanup = () => {
    if (process.env.HARNESS_KEEP_WORKDIRS !== "1") rmSync(dir, { recursive: true, force: true });
  };
  let hasModules = false;
  try {
    const inJson = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".tf.json"))) {
      const path = join(dir, file);
      const config: unknown = JSON.parse(readFileSync(path, "utf8"));
      if (!isRecord(config)) continue;
      stripBackend(config);
      if (isRecord(config.module)) Object.keys(config.module).forEach((n) => inJson.add(n));
      hasModules = rewriteRegistryModules(config, dir) || hasModules;
      writeFileSync(path, JSON.stringify(config, null, 2));
    }
    hasModules = recordHclCalls(readConfiguration(sourceDir), inJson, dir) || hasModules;
    hasModules ||= hasHclModules(dir);
  } catch (error) {
    cleanup();
    throw error;
  }
  return {
    dir,
    hasModules,
    moduleManifest: hasModules ? localModuleManifest(dir) : undefined,
    cleanup,
  };
}

/**
 * Records the module calls of `config` that no `*.tf.json` file holds (they are in `.tf`
 * files) in {@link HCL_CALLS_FILE}: a registry module's stub is copied into the workdir as
 * for a JSON call, and the call keeps its source and version, which the manifest names
 * (Terraform checks that they match the call). Returns whether there is any.
 */
function recordHclCalls(
  config: Record<string, unknown>,
  inJson: ReadonlySet<string>,
  workdir: string,
): boolean {
  const calls: Record<string, HclCall> = {};
  const modules = isRecord(config.module) ? config.module : {};
  for (const [name, block] of Object.entries(modules)) {
    if (inJson.has(name) || !isRecord(block) || typeof block.source !== "string") continue;
    const source = block.source;
    const version = typeof block.version === "string" ? block.version : undefined;
    if (source.startsWith("./") || source.startsWith("../")) {
      calls[name] = { Source: source, Dir: posix.normalize(source) };
      continue;
    }
    const stub = stubNameFor(source, version);
    const exact = version === undefined ? undefined : /\d+\.\d+\.\d+/.exec(version)?.[0];
    if (!stub || (version !== undefined && exact === undefined)) {
      throw new Error(
        `module "${name}": source "${source}"${version ? ` (version "${version}")` : ""} ` +
          `cannot be fetched offline and has no stub in ${MODULE_STUBS_DIR} ` +
          `(stubs exist for: ${availableStubs().join(", ")})`,
      );
    }
    const target = join(workdir, STUBS_IN_WORKDIR, stub);
    if (!existsSync(target)) cpSync(join(MODULE_STUBS_DIR, stub), target, { recursive: true });
    calls[name] = { Source: source, Version: exact, Dir: posix.join(STUBS_IN_WORKDIR, stub) };
  }
  if (Object.keys(calls).length === 0) return false;
  mkdirSync(join(workdir, STUBS_IN_WORKDIR), { recursive: true });
  writeFileSync(join(workdir, HCL_CALLS_FILE), JSON.stringify(calls, null, 2));
  return true;
}

/** Whether a `.tf` file in `dir` calls a module (HCL calls are not read here). */
function hasHclModules(dir: string): boolean {
  return readdirSync(dir).some(
    (f) => f.endsWith(".tf") && /^\s*module\s+"/m.test(readFileSync(join(dir, f), "utf8")),
  );
}

/**
 * The manifest `terraform get` writes for the root module in `root` when every module call,
 * and every call of those modules, names a local directory below it in JSON configuration
 * (the stubs, a module batch's `./template` and its stubs): the root, then each call by its
 * dotted key, with its source as written and its directory relative to the root. Only local
 * paths, so it is the same for every workdir; the harness tests hold it to what `terraform
 * get` writes. Undefined for anything else (a `../` or remote source, a call in HCL): then
 * `terraform get` runs.
 */
export function localModuleManifest(root: string): string | undefined {
  const entries: { Key: string; Source: string; Version?: string; Dir: string }[] = [];
  const visit = (dir: string, prefix: string): boolean => {
    const path = join(root, dir);
    if (!existsSync(path)) return false;
    const hclCalls = join(path, HCL_CALLS_FILE);
    if (existsSync(hclCalls)) {
      const calls = JSON.parse(readFileSync(hclCalls, "utf8")) as Record<string, HclCall>;
      for (const [name, call] of Object.entries(calls)) {
        const key = `${prefix}${name}`;
        const called = posix.join(dir, call.Dir);
        if (called.startsWith("..")) return false;
        entries.push({ Key: key, Source: call.Source, Version: call.Version, Dir: called });
        if (!visit(called, `${key}.`)) return false;
      }
    } else if (hasHclModules(path)) {
      return false;
    }
    for (const file of readdirSync(path).filter((f) => f.endsWith(".tf.json"))) {
      const config: unknown = JSON.parse(readFileSync(join(path, file), "utf8"));
      if (!isRecord(config) || !isRecord(config.module)) continue;
      for (const [name, block] of Object.entries(config.module)) {
        const source = isRecord(block) ? block.source : undefined;
        if (typeof source !== "string" || !source.startsWith("./")) return false;
        const key = `${prefix}${name}`;
        const called = posix.join(dir, source);
        if (called.startsWith("..")) return false;
        entries.push({ Key: key, Source: source, Dir: called });
        if (!visit(called, `${key}.`)) return false;
      }
    }
    return true;
  };
  if (!visit(".", "")) return undefined;
  entries.sort((a, b) => (a.Key < b.Key ? -1 : a.Key > b.Key ? 1 : 0));
  return JSON.stringify({ Modules: [{ Key: "", Source: "", Dir: "." }, ...entries] });
}

/**
 * cdktf always writes `terraform.backend.local`; a backend makes plan demand `init`, and the
 * tests want no state file anyway.
 */
function stripBackend(config: Record<string, unknown>): void {
  const terraform = config.terraform;
  if (isRecord(terraform)) delete terraform.backend;
}

/**
 * Replaces `registry.coder.com/...` module sources with copies of the local stubs and drops
 * their `version` (local modules take none). Returns whether the config has any module.
 */
function rewriteRegistryModules(config: Record<string, unknown>, workdir: string): boolean {
  const modules = config.module;
  if (!isRecord(modules)) return false;
  for (const [name, block] of Object.entries(modules)) {
    if (!isRecord(block) || typeof block.source !== "string") continue;
    const source = block.source;
    if (source.startsWith("./") || source.startsWith("../")) continue;
    const stub = stubNameFor(source, typeof block.version === "string" ? block.version : undefined);
    if (!stub) {
      throw new Error(
        `module "${name}": source "${source}" cannot be fetched offline and has no stub in ` +
          `${MODULE_STUBS_DIR} (stubs exist for: ${availableStubs().join(", ")})`,
      );
    }
    const target = join(workdir, STUBS_IN_WORKDIR, stub);
    if (!existsSync(target)) cpSync(join(MODULE_STUBS_DIR, stub), target, { recursive: true });
    block.source = `./${STUBS_IN_WORKDIR}/${stub}`;
    delete block.version;
  }
  return Object.keys(modules).length > 0;
}

/**
 * `registry.coder.com/coder/vscode-web/coder` → `vscode-web`, when a stub for it exists. A stub
 * of an older release, `<name>@<version>`, stands in for a call pinned to exactly that version:
 * the upgrade tests apply earlier versions of the templates, whose modules had other inputs.
 */
export function stubNameFor(source: string, version?: string): string | undefined {
  if (!source.startsWith(CODER_REGISTRY)) return undefined;
  const [, name] = source.slice(CODER_REGISTRY.length).split("//")[0].split("/");
  if (!name) return undefined;
  const stubs = availableStubs();
  if (version !== undefined && stubs.includes(`${name}@${version}`)) return `${name}@${version}`;
  return stubs.includes(name) ? name : undefined;
}

function availableStubs(): string[] {
  return readdirSync(MODULE_STUBS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}
