/**
 * Per-workspace provisioner tags (`data "coder_workspace_tags"`), written to an HCL file.
 *
 * Coder reads `coder_workspace_tags` (and the defaults of the `coder_parameter`s its tags
 * use) only from files ending in `.tf`, and only when `tags` is a literal object: a block
 * in cdk.tf.json is skipped without an error and the workspace lands on the wrong
 * provisioners. So a template declares its tags with {@link WorkspaceTags}, and synth
 * writes them to `workspace_tags.tf` beside cdk.tf.json, moving the parameters the tags
 * read into that file too (Terraform loads `.tf` and `.tf.json` of one folder together;
 * a block may be declared only once).
 *
 * A tag value is one of: a literal string, `variable.stringValue` of a non-sensitive
 * template variable of type string with a non-empty default, or `parameter.value` of an
 * immutable parameter with a non-empty default. Dynamic parameters (coder/preview) take
 * only string tag values, and the import job's tags come from defaults. Coder evaluates tags with nothing else in scope, guesses the import job's
 * tags from defaults, and a mutable parameter would let a user move an existing
 * workspace to other provisioners.
 */
import {
  Construct,
  DefaultTokenResolver,
  StringConcat,
  Token,
  Tokenization,
  type IConstruct,
} from "../lib/core/cdk";
import { escapeTemplateLiteral } from "../lib/core/escape";
import {
  HclReference,
  renderHclFile,
  type HclBlock,
  type HclBodyItem,
} from "../lib/private/hcl-writer";
import type { HclWriterValue } from "../lib/private/hcl-writer";
import { readProjectFile } from "../lib/core/project-root";
import { provisionerTagProblem } from "./provisioner-tags";

/** File name synth writes beside cdk.tf.json. */
export const WORKSPACE_TAGS_FILE = "workspace_tags.tf";

export interface WorkspaceTagsProps {
  /**
   * Tag name → value: a literal, a template variable's `stringValue`, or an immutable
   * parameter's `value` (see the module comment for why nothing else).
   */
  readonly tags: Readonly<Record<string, string>>;
}

/** `data "coder_workspace_tags" "<id>"`, rendered to workspace_tags.tf at synth. */
export class WorkspaceTags extends Construct {
  public readonly tags: Readonly<Record<string, string>>;

  constructor(scope: Construct, id: string, props: WorkspaceTagsProps) {
    super(scope, id);
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(id)) {
      throw new Error(`${this.node.path}: "${id}" is not a valid Terraform name`);
    }
    if (Object.keys(props.tags).length === 0) {
      throw new Error(`${this.node.path}: no tags; leave WorkspaceTags out instead`);
    }
    for (const key of Object.keys(props.tags)) {
      const problem = provisionerTagProblem(key, "x");
      if (problem !== undefined) throw new Error(`${this.node.path}: ${problem}`);
    }
    this.tags = { ...props.tags };
  }
}

/** Where a tag's value comes from, once checked. */
export type WorkspaceTagSource =
  | { readonly kind: "literal"; readonly value: string }
  | { readonly kind: "variable"; readonly name: string }
  | { readonly kind: "parameter"; readonly name: string; readonly default: string };

/** The result of {@link renderWorkspaceTags}. */
export interface RenderedWorkspaceTags {
  /** Content of workspace_tags.tf. */
  readonly hcl: string;
  /** The stack's Terraform JSON without the parameters moved to the HCL file. */
  readonly json: Record<string, unknown>;
  /** Tag name → source, for docs and messages. */
  readonly tags: Readonly<Record<string, WorkspaceTagSource>>;
}

/** The {@link WorkspaceTags} constructs of a stack, in construct-tree order. */
export function findWorkspaceTags(stack: IConstruct): WorkspaceTags[] {
  return stack.node.findAll().filter((c): c is WorkspaceTags => c instanceof WorkspaceTags);
}

/**
 * Checks a stack's workspace tags against its synthesized Terraform JSON and renders
 * workspace_tags.tf. Returns undefined when the stack declares none. Throws with the
 * template, the tag and the reason when a tag cannot work in Coder.
 */
export function renderWorkspaceTags(
  templateId: string,
  stack: IConstruct,
  terraformJson: Record<string, unknown>,
): RenderedWorkspaceTags | undefined {
  const data = asRecord(terraformJson.data);
  if (data.coder_workspace_tags !== undefined) {
    throw new Error(
      `template "${templateId}": data.coder_workspace_tags is in cdk.tf.json, where Coder ignores it; ` +
        `declare the tags with WorkspaceTags (app/workspace-tags.ts)`,
    );
  }
  const declarations = findWorkspaceTags(stack);
  if (declarations.length === 0) return undefined;

  const parameters = asRecord(data.coder_parameter);
  const variables = asRecord(terraformJson.variable);
  const sources: Record<string, WorkspaceTagSource> = {};
  const moved = new Set<string>();
  const blocks: HclBlock[] = [];
  for (const declaration of declarations) {
    const tags: Record<string, HclWriterValue> = {};
    for (const key of Object.keys(declaration.tags).sort()) {
      const fail = (reason: string): never => {
        throw new Error(`template "${templateId}": workspace tag "${key}": ${reason}`);
      };
      if (sources[key] !== undefined) fail("declared twice");
      const source = classifyTagValue(declaration.tags[key], stack, variables, parameters, fail);
      sources[key] = source;
      if (source.kind === "literal") tags[key] = escapeTemplateLiteral(source.value);
      if (source.kind === "variable") tags[key] = new HclReference(`var.${source.name}`);
      if (source.kind === "parameter") {
        tags[key] = new HclReference(`data.coder_parameter.${source.name}.value`);
        moved.add(source.name);
      }
    }
    blocks.push({
      type: "data",
      labels: ["coder_workspace_tags", declaration.node.id],
      body: [{ kind: "attribute", name: "tags", value: tags }],
    });
  }

  const parameterBlocks = [...moved].sort().map((name) => parameterBlock(name, parameters[name]));
  const header =
    "# Written by coder-cdktf at synth; edit the template's TypeScript, not this file.\n" +
    "# Coder reads coder_workspace_tags, and the parameter defaults its tags use, only\n" +
    "# from .tf files, so they live here rather than in cdk.tf.json.\n\n";
  const hcl = header + renderHclFile([...parameterBlocks, ...blocks], "template");

  const json = structuredClone(terraformJson);
  const jsonData = asRecord(json.data);
  const jsonParameters = asRecord(jsonData.coder_parameter);
  for (const name of moved) delete jsonParameters[name];
  if (Object.keys(jsonParameters).length === 0) delete jsonData.coder_parameter;
  if (Object.keys(jsonData).length === 0) delete json.data;
  return { hcl, json, tags: sources };
}

function classifyTagValue(
  value: string,
  stack: IConstruct,
  variables: Record<string, unknown>,
  parameters: Record<string, unknown>,
  fail: (reason: string) => never,
): WorkspaceTagSource {
  if (!Token.isUnresolved(value)) {
    const problem = provisionerTagProblem("tag", value);
    if (problem !== undefined) fail(problem.replace(/^tag "tag" has /, "it has "));
    return { kind: "literal", value };
  }
  const resolved: unknown = Tokenization.resolve(value, {
    scope: stack,
    resolver: new DefaultTokenResolver(new StringConcat()),
  });
  const expression = typeof resolved === "string" ? resolved : JSON.stringify(resolved);
  const variable = /^\$\{var\.([A-Za-z_][A-Za-z0-9_-]*)\}$/.exec(expression);
  if (variable) {
    const name = variable[1];
    const declared = variables[name];
    if (declared === undefined) fail(`var.${name} is not declared in the template`);
    const spec = asRecord(declared);
    if (spec.sensitive === true) {
      fail(`var.${name} is sensitive; tags are shown to anyone who can list provisioner jobs`);
    }
    // coder/preview (dynamic parameters, the default for new templates since Coder v2.25)
    // rejects a tag whose value is not a string, even where the classic flow converted it.
    if (spec.type !== undefined && String(spec.type) !== "string") {
      fail(
        `var.${name} has type ${String(spec.type)}; with dynamic parameters Coder accepts only string tag values, so declare the variable with type = "string"`,
      );
    }
    if (spec.default === undefined || spec.default === null) {
      fail(
        `var.${name} has no default; Coder computes the tags of the template's import job from variable defaults, so give it a default (or set one in coder-cdktf.jsonc)`,
      );
    }
    if (typeof spec.default !== "string" || spec.default === "") {
      fail(
        `var.${name} has the default ${JSON.stringify(spec.default)}; a tag value is a non-empty string, so give it a non-empty string default`,
      );
    }
    return { kind: "variable", name };
  }
  const parameter = /^\$\{data\.coder_parameter\.([A-Za-z_][A-Za-z0-9_-]*)\.value\}$/.exec(
    expression,
  );
  if (parameter) {
    const name = parameter[1];
    if (parameters[name] === undefined) fail(`data.coder_parameter.${name} is not declared`);
    const spec = asRecord(parameters[name]);
    if (spec.mutable !== false) {
      fail(
        `data.coder_parameter.${name} is mutable; a user could move the workspace to other provisioners (set mutable: false)`,
      );
    }
    if (spec.ephemeral === true) fail(`data.coder_parameter.${name} is ephemeral`);
    if (typeof spec.default !== "string" || spec.default === "") {
      fail(
        `data.coder_parameter.${name} has no default; Coder tags the template import job from defaults and every tag needs a value`,
      );
    }
    if (spec.type === "list(string)") fail(`data.coder_parameter.${name} is a list`);
    return { kind: "parameter", name, default: spec.default as string };
  }
  return fail(
    `${expression} is not a literal, a var.* or a data.coder_parameter.*.value; Coder evaluates workspace tags with nothing else in scope`,
  );
}

/** Terraform meta-arguments a moved parameter may not carry (HCL wants references there, not strings). */
const META_ARGUMENTS = ["count", "for_each", "depends_on", "provider", "lifecycle"];

function parameterBlock(name: string, config: unknown): HclBlock {
  const nestedBlocks = coderParameterBlockTypes();
  // Attributes first, then nested blocks: the usual reading order of a .tf file.
  const attributes: HclBodyItem[] = [];
  const blocks: HclBodyItem[] = [];
  const spec = asRecord(config);
  for (const key of Object.keys(spec).sort()) {
    if (key === "//") continue;
    if (META_ARGUMENTS.includes(key)) {
      throw new Error(
        `data.coder_parameter.${name}: "${key}" cannot be moved to ${WORKSPACE_TAGS_FILE}; a tag parameter takes no meta-arguments`,
      );
    }
    const value = spec[key];
    if (!nestedBlocks.has(key)) {
      attributes.push({ kind: "attribute", name: key, value: toWriterValue(value) });
      continue;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      blocks.push({
        kind: "block",
        block: { type: key, labels: [], body: attributesOf(asRecord(item)) },
      });
    }
  }
  return { type: "data", labels: ["coder_parameter", name], body: [...attributes, ...blocks] };
}

function attributesOf(record: Record<string, unknown>): HclBodyItem[] {
  return Object.keys(record)
    .filter((k) => k !== "//")
    .sort()
    .map((k) => ({ kind: "attribute", name: k, value: toWriterValue(record[k]) }));
}

function toWriterValue(value: unknown): HclWriterValue {
  if (value === null || typeof value === "string" || typeof value === "number") return value;
  if (typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map(toWriterValue);
  if (typeof value === "object") {
    const out: Record<string, HclWriterValue> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toWriterValue(v);
    return out;
  }
  throw new Error(`cannot write ${String(value)} as HCL`);
}

let parameterBlockTypes: Set<string> | undefined;

/** Nested block names of coder_parameter, from the vendored provider schema. */
function coderParameterBlockTypes(): Set<string> {
  if (parameterBlockTypes === undefined) {
    const schema = JSON.parse(readProjectFile("schemas/coder.schema.json")) as {
      provider_schemas: Record<
        string,
        { data_source_schemas: Record<string, { block: { block_types?: object } }> }
      >;
    };
    const coder = schema.provider_schemas["registry.terraform.io/coder/coder"];
    parameterBlockTypes = new Set(
      Object.keys(coder.data_source_schemas.coder_parameter.block.block_types ?? {}),
    );
  }
  return parameterBlockTypes;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
