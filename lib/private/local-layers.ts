/**
 * Groups a template's locals into a few object-valued locals, "layers", and rewrites every
 * reference to them (`local.cpu` → `local.layer_0.cpu`) in the whole configuration.
 *
 * Terraform pays for each local value at every plan and apply: it is a node of the graph,
 * walked, evaluated and checked on its own (some 0.5 ms of CPU per local per run on the
 * provisioner). The devcontainer template's ~210 locals in ~27 layers cut the Terraform CPU
 * of a workspace start by a fifth (docs/performance.md). An attribute read from an object is
 * the value the local had: unknowns and sensitivity stay on the attribute, not the object.
 *
 * A layer is one node, so it depends on everything its members read, and everything that
 * reads a member depends on the whole layer. For that to make no cycle, a layer's members
 * read only earlier layers, resources, data sources, modules, providers and variables; and a
 * local that depends (through any chain) on a resource R never shares a layer with a local R
 * reads. So a local's layer is (stage, depth): its stage is the most resource hops under it
 * (a local that reads a data source that reads a local has stage 1), its depth the longest
 * chain of locals of its own stage it reads. Every edge between layers then goes down in
 * (stage, depth), so the layers' graph has no cycle if the locals' had none.
 *
 * References are found with the project's template scanner (hcl-template.ts): only inside
 * `${ … }` / `%{ … }` sequences, so literal text (scripts, `$${local.x}`) keeps its bytes.
 */
import { expressionTraversals, rewriteTraversals, templateTraversals } from "./hcl-template";
import type { Traversal } from "./hcl-template";

type Json = Record<string, unknown>;

/** Below this many locals, a template keeps them flat: a few nodes cost nothing worth a layer. */
export const MIN_LAYERED_LOCALS = 20;

/** The layers of a configuration's locals: each local's layer, the layers in order. */
export interface LocalLayers {
  /** Layer names, in the order they are written (`layer_0` first). */
  readonly names: readonly string[];
  /** The layer of each local, by local name. */
  readonly layerOf: ReadonlyMap<string, string>;
}

/** Options of {@link localLayers}. */
export interface LocalLayersOptions {
  /** Fewest locals a configuration must have to be layered. @default MIN_LAYERED_LOCALS */
  readonly minLocals?: number;
}

/** Roots of a reference that are not blocks of the configuration. */
const NOT_BLOCKS = new Set(["var", "each", "count", "path", "terraform", "self"]);

/**
 * The layers of `config`'s locals (Terraform JSON, locals flat), or undefined when they stay
 * flat: fewer than `minLocals`, or a reference cycle among the blocks (which Terraform
 * reports itself; layering would only hide where it is).
 */
export function localLayers(
  config: Json,
  options: LocalLayersOptions = {},
): LocalLayers | undefined {
  const locals = asObject(config.locals);
  const names = Object.keys(locals);
  if (names.length === 0 || names.length < (options.minLocals ?? MIN_LAYERED_LOCALS)) {
    return undefined;
  }
  const graph = dependencyGraph(config);
  const stages = new Map<string, number>();
  const depths = new Map<string, number>();
  const visiting = new Set<string>();
  const stageOf = (node: string): number => {
    const known = stages.get(node);
    if (known !== undefined) return known;
    if (visiting.has(node)) throw new Cycle();
    visiting.add(node);
    let stage = 0;
    for (const dep of graph.get(node) ?? []) {
      stage = Math.max(stage, stageOf(dep) + (isLocal(dep) ? 0 : 1));
    }
    visiting.delete(node);
    stages.set(node, stage);
    return stage;
  };
  const depthOf = (node: string): number => {
    const known = depths.get(node);
    if (known !== undefined) return known;
    let depth = 0;
    for (const dep of graph.get(node) ?? []) {
      if (isLocal(dep) && stageOf(dep) === stageOf(node)) depth = Math.max(depth, depthOf(dep) + 1);
    }
    depths.set(node, depth);
    return depth;
  };
  const keys = new Map<string, [number, number]>();
  try {
    for (const name of names) keys.set(name, [stageOf(`local.${name}`), depthOf(`local.${name}`)]);
  } catch (e) {
    if (e instanceof Cycle) return undefined;
    throw e;
  }
  const distinct = [...new Set([...keys.values()].map(([s, d]) => `${s}:${d}`))]
    .map((k) => k.split(":").map(Number) as [number, number])
    .sort(([s1, d1], [s2, d2]) => s1 - s2 || d1 - d2);
  const index = new Map(distinct.map(([s, d], i) => [`${s}:${d}`, i]));
  const layerOf = new Map(
    names.map((name) => {
      const [s, d] = keys.get(name)!;
      return [name, `layer_${index.get(`${s}:${d}`)}`];
    }),
  );
  return { names: distinct.map((_, i) => `layer_${i}`), layerOf };
}

class Cycle extends Error {}

function isLocal(node: string): boolean {
  return node.startsWith("local.");
}

/**
 * `config` with every reference to a layered local rewritten to read it from its layer, in
 * every expression of the configuration (locals, resources, data sources, modules, outputs,
 * checks, variables' validations, providers). Locals stay flat, by name: the locals file
 * writes them into their layers. Strings that are not expressions (descriptions, defaults,
 * module sources) are left alone.
 */
export function rewriteLocalReferences(config: Json, layers: LocalLayers): Json {
  const rename = (t: Traversal) => {
    if (t.names[0] !== "local" || t.names.length < 2) return undefined;
    const layer = layers.layerOf.get(t.names[1]);
    return layer === undefined ? undefined : { text: `local.${layer}.${t.names[1]}`, count: 2 };
  };
  const rewrite = (value: unknown): unknown => {
    if (typeof value === "string") return rewriteTraversals(value, rename);
    if (Array.isArray(value)) return value.map(rewrite);
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value as Json).map(([k, v]) => [
          k === "//" ? k : rewriteTraversals(k, rename),
          k === "//" ? v : rewrite(v),
        ]),
      );
    }
    return value;
  };
  const out: Json = { ...config };
  for (const [section, body] of Object.entries(config)) {
    const literal = LITERAL_FIELDS[section];
    if (literal === undefined) continue;
    out[section] = mapBlocks(section, body, (block) =>
      Object.fromEntries(
        Object.entries(block).map(([k, v]) => [
          k,
          isExpression(section, k, literal) ? rewrite(v) : v,
        ]),
      ),
    );
  }
  return out;
}

/** Whether field `key` of a block of `section` is an expression (a variable's are its validations). */
function isExpression(section: string, key: string, literal: ReadonlySet<string>): boolean {
  if (key === "//") return false;
  return section === "variable" ? key === "validation" : !literal.has(key);
}

/** The sections whose blocks hold expressions, each with the fields of a block that are not. */
const LITERAL_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  locals: new Set(),
  resource: new Set(),
  data: new Set(),
  module: new Set(["source", "version"]),
  output: new Set(["description"]),
  check: new Set(),
  provider: new Set(["alias"]),
  variable: new Set(),
};

/**
 * `section`'s blocks mapped by `f`: a local is one value (wrapped as a block of one field),
 * resources and data sources are by type and name, providers by type (one or a list), the rest
 * by name.
 */
function mapBlocks(section: string, body: unknown, f: (block: Json) => Json): unknown {
  const byName = (o: unknown) =>
    Object.fromEntries(Object.entries(asObject(o)).map(([n, b]) => [n, f(asObject(b))]));
  if (section === "locals") {
    return Object.fromEntries(
      Object.entries(asObject(body)).map(([n, v]) => [n, f({ value: v }).value]),
    );
  }
  if (section === "resource" || section === "data") {
    return Object.fromEntries(Object.entries(asObject(body)).map(([t, o]) => [t, byName(o)]));
  }
  if (section === "provider") {
    return Object.fromEntries(
      Object.entries(asObject(body)).map(([t, c]) => [
        t,
        Array.isArray(c) ? c.map((b) => f(asObject(b))) : f(asObject(c)),
      ]),
    );
  }
  return byName(body);
}

/**
 * Who reads whom: for each local, resource, data source, module and provider configuration
 * (by address: `local.x`, `kubernetes_pod_v1.main`, `data.coder_workspace.me`, `module.m`,
 * `provider.kubernetes` or `provider.kubernetes.alias`), the blocks it depends on.
 */
function dependencyGraph(config: Json): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const resources = new Set<string>();
  for (const [type, byName] of Object.entries(asObject(config.resource))) {
    for (const name of Object.keys(asObject(byName))) resources.add(`${type}.${name}`);
  }
  const providers: string[] = [];
  for (const [type, configs] of Object.entries(asObject(config.provider))) {
    for (const c of Array.isArray(configs) ? configs : [configs]) {
      const alias = asObject(c).alias;
      providers.push(typeof alias === "string" ? `provider.${type}.${alias}` : `provider.${type}`);
    }
  }
  const nodeOf = (t: Traversal): string | undefined => {
    const [root, a, b] = t.names;
    if (NOT_BLOCKS.has(root) || a === undefined) return undefined;
    if (root === "local") return `local.${a}`;
    if (root === "module") return `module.${a}`;
    if (root === "data") return b === undefined ? undefined : `data.${a}.${b}`;
    return resources.has(`${root}.${a}`) ? `${root}.${a}` : undefined;
  };
  const add = (node: string, deps: Iterable<string>) => {
    const set = graph.get(node) ?? new Set<string>();
    graph.set(node, set);
    for (const d of deps) set.add(d);
  };
  // `depends_on` holds bare addresses (cdktf writes "x.y", not "${x.y}"): read each as one.
  const dependsOnOf = (list: unknown): string[] =>
    (Array.isArray(list) ? list : [])
      .filter((d): d is string => typeof d === "string")
      .flatMap((d) => expressionTraversals(d.replace(/^\$\{([\s\S]*)\}$/, "$1")))
      .map(nodeOf)
      .filter((n): n is string => n !== undefined);
  const readsOf = (value: unknown): string[] =>
    templateStrings(value)
      .flatMap(templateTraversals)
      .map(nodeOf)
      .filter((n): n is string => n !== undefined);
  for (const [name, value] of Object.entries(asObject(config.locals))) {
    add(`local.${name}`, readsOf(value));
  }
  for (const kind of ["resource", "data"]) {
    for (const [type, byName] of Object.entries(asObject(config[kind]))) {
      for (const [name, raw] of Object.entries(asObject(byName))) {
        const { depends_on: dependsOn, provider, "//": _, ...body } = asObject(raw);
        const node = `${kind === "data" ? "data." : ""}${type}.${name}`;
        const named =
          typeof provider === "string" ? provider.replace(/^\$\{([\s\S]*)\}$/, "$1").trim() : "";
        const providerNode = `provider.${named !== "" ? named : type.split("_")[0]}`;
        add(node, [...readsOf(body), ...dependsOnOf(dependsOn), providerNode]);
      }
    }
  }
  for (const [name, raw] of Object.entries(asObject(config.module))) {
    // A module may use any of the root's provider configurations (passed on or inherited).
    const { depends_on: dependsOn, "//": _, ...body } = asObject(raw);
    add(`module.${name}`, [...readsOf(body), ...dependsOnOf(dependsOn), ...providers]);
  }
  for (const [type, configs] of Object.entries(asObject(config.provider))) {
    for (const c of Array.isArray(configs) ? configs : [configs]) {
      const { alias, "//": _, ...body } = asObject(c);
      add(
        typeof alias === "string" ? `provider.${type}.${alias}` : `provider.${type}`,
        readsOf(body),
      );
    }
  }
  return graph;
}

/** Every string of a JSON value, object keys included (Terraform reads both as templates). */
function templateStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(templateStrings);
  if (value !== null && typeof value === "object") {
    return Object.entries(value as Json).flatMap(([k, v]) =>
      k === "//" ? [] : [k, ...templateStrings(v)],
    );
  }
  return [];
}

/**
 * The reference that reads local `name` in the files synth writes for `config` (the
 * configuration with flat locals, as app/synth.ts returns it): `local.layer_3.name` when the
 * locals are layered, else `local.name`.
 */
export function localReference(config: Json, name: string): string {
  if (!LAYERS_OF.has(config)) LAYERS_OF.set(config, localLayers(config));
  const layer = LAYERS_OF.get(config)?.layerOf.get(name);
  return layer === undefined ? `local.${name}` : `local.${layer}.${name}`;
}

/** {@link localReference}'s layers by configuration: preview asks for several locals of one. */
const LAYERS_OF = new WeakMap<Json, LocalLayers | undefined>();

function asObject(value: unknown): Json {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Json)
    : {};
}
