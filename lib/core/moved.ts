/**
 * `moved` blocks: how a refactor keeps a resource's state when its address changes.
 *
 * Resource addresses come from construct ids (lib/constructs/template-stack.ts). Renaming a construct,
 * or moving a resource into a count or a module, changes its address; without a `moved`
 * block Terraform plans to destroy the old object and create a new one, which for a PVC
 * deletes the user's data. With one, the next workspace build just re-addresses the state.
 *
 *   const data = new DataVolume(this, "data", …);
 *   movedFrom(data.claim, "kubernetes_persistent_volume_claim_v1.home");
 *
 * Why not cdktf's own `moveFromId`: it allows one move per resource (a resource renamed
 * twice needs two blocks, both still in place for workspaces that skipped a version), and
 * it makes synthesis run `terraform version`, which a machine that only synthesizes need
 * not have. This element writes the same JSON (`"moved": [{ "from": …, "to": … }]`).
 */
import { Construct, TerraformElement, type TerraformResource } from "./cdk";

/** A resource address: `type.name`, optionally indexed, optionally inside modules. */
const ADDRESS =
  /^(module\.[A-Za-z_][A-Za-z0-9_-]*(\[[^\]]+\])?\.)*[A-Za-z_][A-Za-z0-9_-]*\.[A-Za-z_][A-Za-z0-9_-]*(\[[^\]]+\])?$/;

export interface MovedBlockProps {
  /** The old address, e.g. `kubernetes_persistent_volume_claim_v1.home`. */
  readonly from: string;
  /** The resource now living at the new address. */
  readonly to: TerraformResource;
  /** Index of the new instance when `to` has a count (`0`) or for_each (`"key"`). @default none */
  readonly toIndex?: number | string;
}

/** One `moved { from = …, to = … }` block. */
export class MovedBlock extends TerraformElement {
  public readonly from: string;
  private readonly target: TerraformResource;
  private readonly toIndex?: number | string;

  constructor(scope: Construct, id: string, props: MovedBlockProps) {
    super(scope, id, "moved");
    if (!ADDRESS.test(props.from) || props.from.startsWith("data.")) {
      throw new Error(
        `${this.node.path}: "${props.from}" is not a resource address (type.name, optionally ` +
          `indexed or inside a module); data sources hold no state and need no moved block`,
      );
    }
    const fromType = props.from.replace(/^(module\.[^.]+\.)*/, "").split(".")[0];
    if (fromType !== props.to.terraformResourceType) {
      throw new Error(
        `${this.node.path}: cannot move ${props.from} to a ${props.to.terraformResourceType}; ` +
          `Terraform moves state only between resources of the same type`,
      );
    }
    this.from = props.from;
    this.target = props.to;
    this.toIndex = props.toIndex;
  }

  /** The new address, read when synthesizing (the logical id is final by then). */
  get to(): string {
    const base = `${this.target.terraformResourceType}.${this.target.friendlyUniqueId}`;
    if (this.toIndex === undefined) return base;
    return typeof this.toIndex === "number"
      ? `${base}[${this.toIndex}]`
      : `${base}["${this.toIndex}"]`;
  }

  public toTerraform(): Record<string, unknown> {
    if (this.to === this.from) {
      throw new Error(`${this.node.path}: moved block from ${this.from} to itself; remove it`);
    }
    return { moved: [{ from: this.from, to: this.to }] };
  }
}

/**
 * Records that `resource` used to live at each of `fromAddresses` (oldest first). Keep
 * these calls for good: a workspace may update from any older template version.
 */
export function movedFrom(resource: TerraformResource, ...fromAddresses: string[]): MovedBlock[] {
  // The id is unique per old address: TemplateStack rejects two elements with one name.
  return fromAddresses.map(
    (from) =>
      new MovedBlock(resource, `moved_from_${from.replace(/[^A-Za-z0-9_-]/g, "_")}`, {
        from,
        to: resource,
      }),
  );
}
