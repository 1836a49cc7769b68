import {
  Construct,
  Node,
  TerraformElement,
  TerraformStack,
  TerraformDataSource,
  TerraformResource,
  TerraformVariable,
} from "../core/cdk";
import { applyTemplatePolicies } from "../policy";
import { computedVersionConstraint, PROVIDER_UPPER_BOUNDS } from "./provider-features";

/** Source addresses written into `required_providers`, one per provider local name. */
export const PROVIDER_SOURCES: Readonly<Record<string, string>> = {
  coder: "coder/coder",
  kubernetes: "hashicorp/kubernetes",
  devcontainerbuilder: "deepspacecartel/devcontainer-builder",
};

/**
 * Version constraints of the providers whose lower bound is not computed. coder's and
 * kubernetes' are computed per template from what it uses (provider-features.ts).
 */
export const PROVIDER_VERSION_CONSTRAINTS: Readonly<Record<string, string>> = {
  devcontainerbuilder: ">= 0.3.0, < 2.0.0",
};

/** The `required_providers` version of `local` for the configuration `tf`. */
export function providerVersionConstraint(
  local: string,
  tf: Record<string, unknown>,
): string | undefined {
  if (local in PROVIDER_UPPER_BOUNDS || local === "coder") {
    return computedVersionConstraint(local, tf);
  }
  return PROVIDER_VERSION_CONSTRAINTS[local];
}

/**
 * `terraform.required_version`: the templates use `check` blocks (1.5+), and the registry
 * modules they pin (code-server, jetbrains, claude-code) declare `>= 1.9` themselves, so an
 * older Terraform would fail at init on a module instead of here.
 */
export const REQUIRED_TERRAFORM_VERSION = ">= 1.9.0";

/**
 * What Coder shows for a template. Written as README front matter (the convention of
 * Coder's registry), but no released CLI reads it from there: `npm run push` sets all
 * three with `coder templates edit` (app/template-push.ts).
 */
export interface TemplateFrontMatter {
  /** Name shown in the Coder UI. */
  readonly displayName: string;
  /** One-line description shown in the template list. */
  readonly description: string;
  /** Icon path on the Coder server (e.g. `/icon/k8s.png`) or a URL. */
  readonly icon: string;
}

export interface TemplateStackProps {
  /**
   * The template's source folder, relative to the project root.
   * @default `templates/<id>`: the stack id is the template id and its folder's name
   */
  readonly sourceDir?: string;
  readonly frontMatter: TemplateFrontMatter;
  /**
   * Files and folders (relative to `sourceDir`) copied into the template's
   * output folder next to cdk.tf.json. The README.md of `sourceDir` is always
   * shipped (with the front matter prepended) and need not be listed.
   * @default []
   */
  readonly extraFiles?: readonly string[];
}

/**
 * Base of every template: one stack = one Coder template.
 *
 * - Resource addresses are a contract with existing workspaces, so a
 *   resource's logical id is exactly its own construct id (`coder_agent.main`
 *   for `new Agent(scope, "main")`), not cdktf's path hash; two elements of
 *   the same kind and name fail synth instead of silently renaming one.
 * - No `terraform.backend`: Coder keeps state in its own work dir.
 * - `required_version` and the provider constraints of this project.
 * - Every coder_parameter must carry `order` (JSON loses source order).
 * - The template policies (lib/policy) run at synth: no RBAC authoring, no ungated
 *   privileged/host access, limits on every container, data and identities outlive stops.
 */
export class TemplateStack extends TerraformStack {
  public readonly sourceDir: string;
  public readonly frontMatter: TemplateFrontMatter;
  public readonly extraFiles: readonly string[];
  private readonly allocated = new Map<string, string>();

  constructor(scope: Construct, id: string, props: TemplateStackProps) {
    super(scope, id);
    this.sourceDir = props.sourceDir ?? `templates/${id}`;
    this.frontMatter = props.frontMatter;
    this.extraFiles = props.extraFiles ?? [];
    applyTemplatePolicies(this);
  }

  protected allocateLogicalId(element: TerraformElement | Node): string {
    const node = element instanceof Node ? element : element.node;
    const name = node.id;
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
      throw new Error(
        `${node.path}: construct id "${name}" is not a valid Terraform name ([A-Za-z_][A-Za-z0-9_-]*); ` +
          `it becomes the resource address`,
      );
    }
    const key = `${elementKind(element)}.${name}`;
    const owner = this.allocated.get(key);
    if (owner !== undefined && owner !== node.path) {
      throw new Error(
        `${node.path}: address ${key} is already used by ${owner}; pick another construct id`,
      );
    }
    this.allocated.set(key, node.path);
    return name;
  }

  /**
   * cdktf's preparing pass resolves every element of the stack once before the synth, only
   * to find references to other stacks' elements and wire each through a remote-state data
   * source and an output. A Coder template is pushed alone and Coder keeps its state: such a
   * wiring could never work, so the pass (one more resolve of the whole stack, ~45 ms of the
   * devcontainer template's synth in a profile) is skipped. A reference to another
   * template's element is then written as it is, to an element this configuration does not
   * declare, and `terraform validate` (every plan test) rejects it.
   * The backend cdktf would add here is removed by {@link toTerraform} anyway.
   */
  public prepareStack(): void {
    // Nothing to prepare: see above.
  }

  /** Names of the template variables, in the order the template declares them. */
  public declaredVariableNames(): string[] {
    return this.node
      .findAll()
      .filter((c): c is TerraformVariable => c instanceof TerraformVariable)
      .map((v) => v.friendlyUniqueId);
  }

  public toTerraform(): { [key: string]: unknown } {
    const tf = super.toTerraform() as TerraformJson;
    const terraform = (tf.terraform ??= {});
    delete terraform.backend;
    terraform.required_version = REQUIRED_TERRAFORM_VERSION;
    for (const [local, req] of Object.entries(terraform.required_providers ?? {})) {
      const constraint = providerVersionConstraint(local, tf);
      const source = PROVIDER_SOURCES[local];
      if (constraint === undefined || source === undefined) {
        throw new Error(
          `${this.node.path}: provider "${local}" has no source or version constraint (PROVIDER_SOURCES, PROVIDER_VERSION_CONSTRAINTS in lib/constructs/template-stack.ts, or the feature table in provider-features.ts)`,
        );
      }
      req.source = source;
      req.version = constraint;
    }
    for (const [name, param] of Object.entries(tf.data?.coder_parameter ?? {})) {
      if (typeof param.order !== "number") {
        throw new Error(
          `${this.node.path}: data.coder_parameter.${name} has no numeric "order"; ` +
            `Coder cannot keep the order of parameters in a .tf.json template without it`,
        );
      }
    }
    return tf;
  }
}

interface TerraformJson {
  terraform?: {
    backend?: unknown;
    required_version?: string;
    required_providers?: Record<string, { source?: string; version?: string }>;
  };
  data?: Record<string, Record<string, Record<string, unknown>>>;
  [key: string]: unknown;
}

function elementKind(element: TerraformElement | Node): string {
  if (element instanceof TerraformDataSource) return `data.${element.terraformResourceType}`;
  if (element instanceof TerraformResource) return element.terraformResourceType;
  return element.constructor.name;
}
