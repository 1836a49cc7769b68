/**
 * A template variable that carries the rules its value must follow. Each rule becomes a
 * Terraform `validation` block, so `coder templates push --var` with a bad value fails at
 * push time with the rule in the message, and the same rules check an operator's default
 * from coder-cdktf.jsonc at synth (app/variable-defaults.ts), at the file's position.
 */
import {
  Construct,
  Lazy,
  TerraformStack,
  TerraformVariable,
  Tokenization,
  type TerraformVariableConfig,
} from "./cdk";
import { Expr, type HclValue } from "./expr";
import { invalidPropMessage, InvalidPropError, type Rule } from "./validate";

export interface TemplateVariableConfig extends TerraformVariableConfig {
  /**
   * Rules every value must follow. Rules with a Terraform form become `validation` blocks;
   * all of them check defaults at synth. @default []
   */
  readonly rules?: readonly Rule[];
  /**
   * Rules on this variable's value together with other variables' defaults, for an
   * operator's defaults at synth. Terraform before 1.9 cannot refer to another variable in
   * a `validation` block, so the template must hold the same rule at plan time itself
   * (e.g. a precondition). @default []
   */
  readonly crossRules?: readonly CrossVariableRule[];
}

/** A rule over a variable's value and the defaults of the other variables of its stack. */
export interface CrossVariableRule {
  /** What a valid value is, given the others: "an https:// URL unless ca_sha256 is set". */
  readonly requirement: string;
  /** Whether `value` follows the rule; `defaultOf(name)` is another variable's default. */
  test(value: unknown, defaultOf: (name: string) => unknown): boolean;
}

/** A TerraformVariable with {@link TemplateVariableConfig.rules}. */
export class TemplateVariable extends TerraformVariable {
  public readonly rules: readonly Rule[];
  public readonly crossRules: readonly CrossVariableRule[];

  constructor(scope: Construct, id: string, config: TemplateVariableConfig) {
    const { rules = [], crossRules = [], ...variableConfig } = config;
    super(scope, id, variableConfig);
    this.rules = rules;
    this.crossRules = crossRules;
    for (const rule of rules) {
      if (variableConfig.default !== undefined && !rule.test(variableConfig.default)) {
        throw new InvalidPropError(
          invalidPropMessage(
            this.templateId(),
            `variable ${id} default`,
            variableConfig.default,
            rule,
          ),
        );
      }
      if (rule.condition !== undefined) {
        this.addValidation({
          condition: rule.condition(Expr.of(this.value)),
          errorMessage: `${id} must be ${rule.requirement}.`,
        });
      }
    }
  }

  /**
   * cdktf writes a variable's attributes with snake_case keys, and that reaches into the
   * default: a map of node labels `{ "nvidia.com/gpu.present" = "true" }` came out as
   * `nvidia_com_gpu_present`, so pods would select nodes no one labelled. The default goes out
   * as given (cdktf leaves a token's value alone): the constructor's, or the operator's from
   * coder-cdktf.jsonc (app/variable-defaults.ts sets it the same way).
   */
  public synthesizeAttributes(): { [name: string]: unknown } {
    return { ...super.synthesizeAttributes(), default: verbatim(this.default) };
  }

  /** {@link synthesizeAttributes} for cdktf's HCL output. */
  public synthesizeHclAttributes(): { [name: string]: unknown } {
    const attributes = super.synthesizeHclAttributes() as Record<string, { value?: unknown }>;
    if (attributes.default === undefined) return attributes;
    return { ...attributes, default: { ...attributes.default, value: verbatim(this.default) } };
  }

  /** `var.<name>` as an `Expr<boolean>`, for expressions and typed props; the type must be bool. */
  public get booleanExpr(): Expr<boolean> {
    return this.typed("bool", this.booleanValue);
  }

  /** `var.<name>` as an `Expr<number>`; the variable's type must be number. */
  public get numberExpr(): Expr<number> {
    return this.typed("number", this.numberValue);
  }

  /** `var.<name>` as an `Expr<string>`; the variable's type must be string. */
  public get stringExpr(): Expr<string> {
    return this.typed("string", this.stringValue);
  }

  /** `var.<name>` as an `Expr<string[]>`; the variable's type must be list(string). */
  public get stringListExpr(): Expr<string[]> {
    return this.typed("list(string)", this.listValue);
  }

  /** The first rule `value` breaks, or undefined when it follows them all. */
  public brokenRule(value: unknown): Rule | undefined {
    return this.rules.find((rule) => !rule.test(value));
  }

  /** The value as an `Expr<T>`, refused at synth when the variable is declared another type. */
  private typed<T>(type: string, token: HclValue): Expr<T> {
    if (this.type !== type) {
      throw new Error(
        `${this.node.path}: variable ${this.node.id} is ${this.type ?? "untyped"}, not ${type}`,
      );
    }
    return Expr.of<T>(token);
  }

  private templateId(): string {
    return TerraformStack.of(this).node.id;
  }
}

/** `value` as a token when it has keys cdktf would rename (an object, or a list holding one). */
function verbatim(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Tokenization.isResolvable(value)) {
    return value;
  }
  return Lazy.anyValue({ produce: () => value });
}
