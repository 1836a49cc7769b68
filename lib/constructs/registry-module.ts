import { Construct, TerraformHclModule } from "../core/cdk";

export interface RegistryModuleProps {
  /** Module address, e.g. `registry.coder.com/coder/vscode-web/coder`. */
  readonly source: string;
  /** Exact version: a template version must always fetch the same module code. */
  readonly version: string;
  /** The module's input variables. @default {} */
  readonly inputs?: Record<string, unknown>;
  /**
   * How many instances (a token such as the workspace's start_count). Without it the
   * module is always instantiated once.
   * @default no count
   */
  readonly count?: number;
  /** The module's address: `module.<moduleName>`. @default the construct id */
  readonly moduleName?: string;
}

/**
 * A module from a Terraform registry (e.g. Coder's IDE modules), pinned to one
 * version. cdktf's module class has no `count`, so it is set by override; a
 * module counted by start_count disappears on stop like the pod it serves.
 */
export class RegistryModule extends Construct {
  public readonly module: TerraformHclModule;

  constructor(scope: Construct, id: string, props: RegistryModuleProps) {
    super(scope, id);
    if (!/^\d+\.\d+\.\d+$/.test(props.version)) {
      throw new Error(
        `${this.node.path}: module version must be exact (x.y.z), got "${props.version}"`,
      );
    }
    this.module = new TerraformHclModule(this, props.moduleName ?? id, {
      source: props.source,
      version: props.version,
      variables: props.inputs ?? {},
    });
    if (props.count !== undefined) this.module.addOverride("count", props.count);
  }
}
