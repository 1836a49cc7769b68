/**
 * The configurations `node scripts/bench.js --first-start` compares (issue 45.5), and what it
 * counts in them: the variables each declares, its local values and module calls (its own and
 * those of the modules it calls), a copy without its registry modules, and a copy whose HCL
 * module calls of the Coder registry point at the harness's stubs (the harness rewrites the
 * calls in JSON only; an operator's template, or a template with its modules in main.tf, has
 * them in HCL). Files are read in `terraform fmt`'s layout: a top-level block opens at column 0
 * and closes with the next `}` at column 0.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { rememberConfiguration, stackConfiguration } from "../../lib/private/stack-configuration";

const root = path.resolve(__dirname, "..", "..");
/** The harness's stand-ins for registry modules, one folder per module (name or name@version). */
const STUBS = path.join(root, "packages", "terraform-harness", "src", "module-stubs");
const REGISTRY = "registry.coder.com/";
/** Where {@link offlineCopy} puts the stubs (the harness's own folder name for them). */
const STUBS_IN_COPY = ".harness-modules";

/** What {@link configurationCounts} counts. */
export interface ConfigurationCounts {
  /** Local values of the root module: Terraform walks and evaluates each as one graph node. */
  readonly locals: number;
  /** Local values of the modules it calls, once per call (a call with count 0 evaluates none). */
  readonly moduleLocals: number;
  /** Module calls, the root's and theirs. */
  readonly modules: number;
}

interface HclBlock {
  readonly label: string | undefined;
  /** Line indexes of the opening line and of the closing `}`. */
  readonly start: number;
  readonly end: number;
}

/** A folder's `.tf` and `.tf.json` files (absolute paths). */
function configFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".tf") || f.endsWith(".tf.json"))
    .sort()
    .map((f) => path.join(dir, f));
}

/** A `.tf.json` file's top-level blocks (`variable`, `locals`, `module`, …). */
type JsonConfig = Record<string, Record<string, Record<string, unknown>> | undefined>;

function readJson(file: string): JsonConfig {
  return JSON.parse(fs.readFileSync(file, "utf8")) as JsonConfig;
}

/** Top-level blocks of one kind (`module`, `locals`, …) in HCL lines. */
export function hclBlocks(lines: readonly string[], kind: string): HclBlock[] {
  const opening = new RegExp(`^${kind}(?:\\s+"([^"]*)")?\\s*\\{\\s*$`);
  const blocks: HclBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = opening.exec(lines[i]);
    if (!m) continue;
    let end = i + 1;
    while (end < lines.length && !/^\}\s*$/.test(lines[end])) end++;
    blocks.push({ label: m[1], start: i, end });
    i = end;
  }
  return blocks;
}

/** The variable names a configuration declares (cdk.tf.json's `variable`, `variable "x" {`). */
export function declaredVariables(dir: string): Set<string> {
  const names = new Set<string>();
  for (const file of configFiles(dir)) {
    if (file.endsWith(".json")) {
      for (const name of Object.keys(readJson(file).variable ?? {})) names.add(name);
    } else {
      const lines = fs.readFileSync(file, "utf8").split("\n");
      for (const block of hclBlocks(lines, "variable")) names.add(block.label ?? "");
    }
  }
  return names;
}

/** A module call: its source as written and its version, if any. */
interface ModuleCall {
  readonly source: string;
  readonly version: string | undefined;
}

/** The value of a one-line `name = "value"` attribute among a block's lines. */
function hclString(lines: readonly string[], name: string): string | undefined {
  const pattern = new RegExp(`^\\s+${name}\\s*=\\s*"([^"]*)"\\s*$`);
  for (const line of lines) {
    const m = pattern.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

/** Local values and module calls of one module's files. */
function moduleContents(dir: string): { locals: number; calls: ModuleCall[] } {
  let locals = 0;
  const calls: ModuleCall[] = [];
  for (const file of configFiles(dir)) {
    if (file.endsWith(".json")) {
      const json = readJson(file);
      // `locals` is one object, or a list of them (as cdktf may write it).
      const blocks: unknown[] = Array.isArray(json.locals) ? json.locals : [json.locals ?? {}];
      for (const block of blocks) locals += Object.keys(block as object).length;
      for (const call of Object.values(json.module ?? {})) {
        calls.push({ source: String(call.source), version: call.version as string | undefined });
      }
      continue;
    }
    const lines = fs.readFileSync(file, "utf8").split("\n");
    for (const block of hclBlocks(lines, "locals")) {
      // An attribute at the block's own level (two spaces in terraform fmt's layout).
      locals += lines
        .slice(block.start + 1, block.end)
        .filter((l) => /^ {2}[A-Za-z_][\w-]*\s*=/.test(l)).length;
    }
    for (const block of hclBlocks(lines, "module")) {
      const body = lines.slice(block.start + 1, block.end);
      calls.push({ source: hclString(body, "source") ?? "", version: hclString(body, "version") });
    }
  }
  return { locals, calls };
}

/** The stub folder name for a registry module call, as the harness chooses it. */
export function stubFor(source: string, version: string | undefined): string | undefined {
  if (!source.startsWith(REGISTRY)) return undefined;
  const name = source.slice(REGISTRY.length).split("//")[0].split("/")[1];
  const stubs = fs.readdirSync(STUBS);
  if (version !== undefined && stubs.includes(`${name}@${version}`)) return `${name}@${version}`;
  return name && stubs.includes(name) ? name : undefined;
}

/** The folder a call's source names: a stub for a registry module, else a local path. */
function calledDir(from: string, call: ModuleCall): string | undefined {
  const stub = stubFor(call.source, call.version);
  if (stub) return path.join(STUBS, stub);
  return call.source.startsWith(".") ? path.resolve(from, call.source) : undefined;
}

/** Local values and module calls of a configuration and of every module it calls. */
export function configurationCounts(dir: string): ConfigurationCounts {
  const top = moduleContents(dir);
  let moduleLocals = 0;
  let modules = top.calls.length;
  const pending = top.calls.map((call) => ({ from: dir, call }));
  for (let next = pending.pop(); next; next = pending.pop()) {
    const called = calledDir(next.from, next.call);
    if (!called || !fs.existsSync(called)) continue;
    const contents = moduleContents(called);
    moduleLocals += contents.locals;
    modules += contents.calls.length;
    pending.push(...contents.calls.map((call) => ({ from: called, call })));
  }
  return { locals: top.locals, moduleLocals, modules };
}

/** `lines` without the top-level blocks given (their closing line included). */
function withoutBlocks(lines: readonly string[], blocks: readonly HclBlock[]): string[] {
  return lines.filter((_, i) => !blocks.some((b) => i >= b.start && i <= b.end));
}

/**
 * A copy of `dir` in `into` whose HCL calls of Coder registry modules name copies of the
 * harness's stubs, without their `version` (local modules take none); JSON calls are left to
 * the harness. Fails naming a call that has no stub: `terraform init` cannot fetch it offline.
 */
export function offlineCopy(dir: string, into: string): string {
  fs.cpSync(dir, into, { recursive: true });
  for (const file of configFiles(into).filter((f) => f.endsWith(".tf"))) {
    const lines = fs.readFileSync(file, "utf8").split("\n");
    const out = [...lines];
    for (const block of hclBlocks(lines, "module")) {
      const body = lines.slice(block.start + 1, block.end);
      const source = hclString(body, "source") ?? "";
      if (!source.startsWith(REGISTRY)) continue;
      const stub = stubFor(source, hclString(body, "version"));
      if (!stub) throw new Error(`${file}: module "${block.label}" (${source}) has no stub`);
      const target = path.join(into, STUBS_IN_COPY, stub);
      if (!fs.existsSync(target)) fs.cpSync(path.join(STUBS, stub), target, { recursive: true });
      for (let i = block.start + 1; i < block.end; i++) {
        if (/^\s+source\s*=/.test(out[i])) out[i] = `  source = "./${STUBS_IN_COPY}/${stub}"`;
        if (/^\s+version\s*=/.test(out[i])) out[i] = "";
      }
    }
    fs.writeFileSync(file, out.join("\n"));
  }
  tellHarness(dir, into, (call) => {
    const stub = stubFor(String(call.source ?? ""), call.version as string | undefined);
    if (!stub || !String(call.source ?? "").startsWith(REGISTRY)) return call;
    const { version: _version, ...rest } = call;
    return { ...rest, source: `./${STUBS_IN_COPY}/${stub}` };
  });
  return into;
}

/**
 * Tells the harness what a copy holds (stack-configuration.ts): the configuration of the
 * folder it copies (synth's model when this process wrote it, else its JSON files), with each
 * module call as `edit` leaves it (undefined: dropped). A copy is no folder synth wrote, and
 * its module calls in main.tf are what the harness must see as the copy has them.
 */
function tellHarness(
  dir: string,
  into: string,
  edit: (call: Record<string, unknown>) => Record<string, unknown> | undefined,
): void {
  let model: Record<string, unknown>;
  try {
    model = stackConfiguration(dir);
  } catch {
    // An operator's own HCL folder: the harness sees its JSON files, as it always has.
    model = Object.assign(
      {},
      ...configFiles(dir)
        .filter((f) => f.endsWith(".json"))
        .map(readJson),
    );
  }
  const calls = Object.entries((model.module ?? {}) as Record<string, Record<string, unknown>>)
    .map(([name, call]) => [name, edit(call)] as const)
    .filter(([, call]) => call !== undefined);
  const { module: _module, ...rest } = model;
  rememberConfiguration(
    into,
    calls.length > 0 ? { ...rest, module: Object.fromEntries(calls) } : rest,
  );
}

/** A copy of `dir` in `into` without its module calls, in JSON and in HCL. */
export function withoutModules(dir: string, into: string): string {
  fs.cpSync(dir, into, { recursive: true });
  for (const file of configFiles(into)) {
    if (file.endsWith(".json")) {
      const json = readJson(file);
      delete json.module;
      fs.writeFileSync(file, JSON.stringify(json));
    } else {
      const lines = fs.readFileSync(file, "utf8").split("\n");
      fs.writeFileSync(file, withoutBlocks(lines, hclBlocks(lines, "module")).join("\n"));
    }
  }
  tellHarness(dir, into, () => undefined);
  return into;
}
