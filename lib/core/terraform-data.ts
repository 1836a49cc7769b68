import { Construct, TerraformResource, type TerraformMetaArguments } from "./cdk";

export interface TerraformDataConfig extends TerraformMetaArguments {
  /** Any value (a string, a number, an object); stored in state and mirrored in `output`. @default none */
  readonly input?: unknown;
  /** Any value; when it changes, the resource is replaced. @default none */
  readonly triggersReplace?: unknown;
}

/**
 * Terraform's built-in `terraform_data` resource.
 *
 * cdktf's own class (DataResource) types `input` as a map and, worse, adds a synth-time
 * validation that runs `terraform version`: synthesis would then need Terraform installed
 * (and pay a process start). The templates require Terraform >= 1.5 themselves, which
 * covers terraform_data (1.4), so this class is the resource without that check.
 */
export class TerraformData extends TerraformResource {
  public static readonly tfResourceType = "terraform_data";

  private readonly input?: unknown;
  private readonly triggersReplace?: unknown;

  constructor(scope: Construct, id: string, config: TerraformDataConfig = {}) {
    super(scope, id, {
      terraformResourceType: TerraformData.tfResourceType,
      terraformGeneratorMetadata: { providerName: "terraform" },
      provider: config.provider,
      dependsOn: config.dependsOn,
      count: config.count,
      lifecycle: config.lifecycle,
      provisioners: config.provisioners,
      connection: config.connection,
      forEach: config.forEach,
    });
    this.input = config.input;
    this.triggersReplace = config.triggersReplace;
  }

  get id(): string {
    return this.getStringAttribute("id");
  }

  protected synthesizeAttributes(): { [name: string]: unknown } {
    return { input: this.input, triggers_replace: this.triggersReplace };
  }
}
