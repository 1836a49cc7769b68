import { Construct, Token } from "../core/cdk";
import { hcl } from "../core/expr";
import { DataCoderWorkspace } from "../../.gen/providers/coder/data-coder-workspace";
import { DataCoderWorkspaceOwner } from "../../.gen/providers/coder/data-coder-workspace-owner";

/**
 * The two data sources every template reads: `data.coder_workspace.me` and
 * `data.coder_workspace_owner.me`. Apply-time values are exposed as tokens.
 */
export class WorkspaceData extends Construct {
  public readonly workspace: DataCoderWorkspace;
  public readonly owner: DataCoderWorkspaceOwner;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // Both are addressed `me`; sibling constructs need distinct ids, hence a scope each.
    this.workspace = new DataCoderWorkspace(new Construct(this, "workspace"), "me");
    this.owner = new DataCoderWorkspaceOwner(new Construct(this, "owner"), "me");
  }

  /** 1 while the workspace starts or runs, 0 when it stops: the `count` of everything that must not outlive a stop. */
  get startCount(): number {
    return this.workspace.startCount;
  }

  /**
   * 0 while the workspace is an unclaimed prebuild (owned by Coder's `prebuilds` user), else 1:
   * the `count` of what belongs to the user (their git identity), which a claim then creates
   * instead of replacing.
   */
  get claimedCount(): number {
    return Token.asNumber(hcl`${this.workspace.isPrebuild} ? 0 : 1`);
  }

  /**
   * {@link startCount} for what must run as the user and not in a prebuild (scripts that clone
   * with the user's credentials or write into the user's settings): 0 while an unclaimed
   * prebuild starts; the agent runs them when it reinitializes after the claim.
   */
  get claimedStartCount(): number {
    return Token.asNumber(hcl`${this.workspace.isPrebuild} ? 0 : ${this.startCount}`);
  }

  /** The workspace's UUID: unique, stable for its life, valid in Kubernetes names. */
  get id(): string {
    return this.workspace.id;
  }

  get name(): string {
    return this.workspace.name;
  }
}
