/**
 * A template's local values, written in HCL native syntax (locals.tf) instead of cdk.tf.json.
 *
 * Terraform parses a `.tf.json` string as a template each time it evaluates or analyses it
 * (several times per plan), while a `.tf` file is parsed once when it is loaded. The
 * devcontainer template's apply-time logic (sizing, placement, warnings) is some 33 KB of
 * locals: in HCL its plans take ~13% less CPU, a module batch of 44 workspaces ~19%, and a
 * configuration of locals alone ~38% (docs/performance.md). The values are the same
 * expressions: a string that is one interpolation becomes its bare expression, any other
 * string stays a template with the same sequences (see hcl-template.ts), objects and lists
 * keep their shape. Terraform reads both files of the folder as one configuration.
 */
import { type IConstruct, TerraformLocal, TerraformStack } from "../core/cdk";
import { localWhy } from "../core/local-comments";
import { type HclBlock, hclValueOf, renderHclFile } from "./hcl-writer";

/** The file beside cdk.tf.json that holds the locals. */
export const LOCALS_FILE = "locals.tf";

const HEADER =
  "# The template's local values, synthesized by coder-cdktf with cdk.tf.json (one\n" +
  "# configuration). Generated: change the constructs, not this file.\n\n";

/** Locals that one construct declares, in the order it declares them. */
export interface LocalGroup {
  /** What the comment above the group names: the construct's path in its stack and class. */
  readonly owner: string;
  readonly names: readonly string[];
  /** Why a local exists, by name, written above it as a comment (lib/core/local-comments.ts). @default none */
  readonly whys?: Readonly<Record<string, string>>;
}

/**
 * locals.tf's text for `locals` (a `locals` object of Terraform JSON). With `groups`, each
 * construct's locals are a `locals` block of their own under a comment naming the construct,
 * in the order the groups come (locals no group names follow in one block); without, one
 * block in the order of `locals`.
 */
export function renderLocalsFile(
  locals: Readonly<Record<string, unknown>>,
  groups: readonly LocalGroup[] = [],
): string {
  const whys = Object.assign({}, ...groups.map((g) => g.whys ?? {})) as Record<string, string>;
  const entry = (name: string) => {
    const value = hclValueOf(locals[name], `local.${name}`);
    return { kind: "attribute" as const, name: checkedName(name), value, comment: whys[name] };
  };
  const placed = new Set<string>();
  const blocks: HclBlock[] = [];
  for (const group of groups) {
    const names = group.names.filter((n) => n in locals && !placed.has(n));
    names.forEach((n) => placed.add(n));
    if (names.length > 0) {
      blocks.push({ type: "locals", labels: [], body: names.map(entry), comment: group.owner });
    }
  }
  const rest = Object.keys(locals).filter((n) => !placed.has(n));
  if (rest.length > 0 || blocks.length === 0) {
    const comment = groups.length > 0 ? "declared outside any construct" : undefined;
    blocks.push({ type: "locals", labels: [], body: rest.map(entry), comment });
  }
  return HEADER + renderHclFile(blocks, "template");
}

function checkedName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
    throw new Error(`local "${name}": not a valid Terraform name`);
  }
  return name;
}

/**
 * The locals of `stack` grouped by the construct that declares each (its scope), in source
 * order: constructs in the order they were created, each one's locals in the order it
 * created them.
 */
export function localGroups(stack: TerraformStack): LocalGroup[] {
  const groups = new Map<IConstruct, string[]>();
  const whys: Record<string, string> = {};
  for (const c of stack.node.findAll()) {
    if (!(c instanceof TerraformLocal) || TerraformStack.of(c) !== stack) continue;
    const owner = c.node.scope!;
    const names = groups.get(owner) ?? [];
    groups.set(owner, names);
    names.push(c.friendlyUniqueId);
    const why = localWhy(c);
    if (why !== undefined) whys[c.friendlyUniqueId] = why;
  }
  return [...groups].map(([owner, names]) => ({
    owner: describeOwner(stack, owner),
    names,
    whys: Object.fromEntries(names.filter((n) => n in whys).map((n) => [n, whys[n]])),
  }));
}

function describeOwner(stack: TerraformStack, owner: IConstruct): string {
  const relative = owner === stack ? "" : owner.node.path.slice(stack.node.path.length + 1);
  const name = owner.constructor.name;
  return relative === "" ? `${stack.node.id} (${name})` : `${relative} (${name})`;
}

/** Names of the locals a locals.tf written by {@link renderLocalsFile} declares. */
export function localNames(localsFileText: string): string[] {
  // Entries of a locals block are the only lines indented by exactly two spaces: values that
  // span lines are indented further.
  return [...localsFileText.matchAll(/^ {2}([A-Za-z_][A-Za-z0-9_-]*) +=/gm)].map((m) => m[1]);
}
