import { Construct } from "./cdk";
import { DataCoderWorkspace } from "../.gen/providers/coder/data-coder-workspace";
import { DataCoderWorkspaceOwner } from "../.gen/providers/coder/data-coder-workspace-owner";

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

  /** The workspace's UUID: unique, stable for its life, valid in Kubernetes names. */
  get id(): string {
    return this.workspace.id;
  }

  get name(): string {
    return this.workspace.name;
  }
}
