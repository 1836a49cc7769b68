/**
 * A Terraform `check` block (Terraform >= 1.5), which cdktf has no class for.
 *
 * A failed assertion is a *warning*: plan and apply go on, and Terraform prints
 * "Check block assertion failed" with the error message. Coder shows it in the
 * workspace build log, which makes checks the way to tell a user that part of
 * their configuration was not honored without failing their workspace build.
 *
 * Synthesizes to `check.<name>.assert = [{ condition, error_message }, …]`.
 * Note that Terraform prints the values referenced by a failed condition in the
 * diagnostic: never reference a secret (or any user-typed value) in a condition.
 */
import { Construct, TerraformElement } from "./cdk";
import type { Expr } from "./expr";

/** One `assert` of a check block. */
export interface CheckAssertion {
  /** A boolean expression (usually an `hcl` token); false makes the check fail. */
  readonly condition: Expr<boolean> | boolean;
  /**
   * The message of a failed assertion: literal text or a string token. Literal
   * `${`/`%{` must be escaped (see escapeTemplateLiteral): it is a template.
   */
  readonly errorMessage: string;
}

export interface CheckBlockProps {
  /**
   * The block's name (`check.<name>`), unique within the module.
   * @default the construct id
   */
  readonly name?: string;
  /** The assertions, in order; at least one. */
  readonly assertions: readonly CheckAssertion[];
}

/** A `check "<name>" { assert { … } }` block. */
export class CheckBlock extends TerraformElement {
  /** The block's name: `check.<name>` in Terraform's output. */
  public readonly name: string;
  private readonly assertions: readonly CheckAssertion[];

  constructor(scope: Construct, id: string, props: CheckBlockProps) {
    super(scope, id, "check");
    this.name = props.name ?? id;
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(this.name)) {
      throw new Error(`${this.node.path}: "${this.name}" is not a valid check block name`);
    }
    if (props.assertions.length === 0) {
      throw new Error(`${this.node.path}: a check block needs at least one assertion`);
    }
    this.assertions = props.assertions;
  }

  public toTerraform(): Record<string, unknown> {
    return {
      check: {
        [this.name]: {
          assert: this.assertions.map((a) => ({
            condition: a.condition,
            error_message: a.errorMessage,
          })),
        },
      },
    };
  }

  public toHclTerraform(): Record<string, unknown> {
    return this.toTerraform();
  }

  public toMetadata(): Record<string, unknown> {
    return {};
  }
}
