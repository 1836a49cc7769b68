import { Construct, Fn } from "../core/cdk";
import {
  DataCoderParameter,
  type DataCoderParameterOption,
  type DataCoderParameterValidation,
} from "../../.gen/providers/coder/data-coder-parameter";
import { checkConstructProp, CODER_PARAMETER_NAME } from "../core/validate";

export type ParameterType = "string" | "number" | "bool" | "list(string)";

export interface WorkspaceParameterProps {
  /** Position in the workspace form. Required: a .tf.json template loses source order. */
  readonly order: number;
  readonly displayName: string;
  readonly description: string;
  /** @default "string" */
  readonly type?: ParameterType;
  /** No default makes the parameter required. @default none */
  readonly default?: string;
  /** Whether users may change it after creating the workspace. @default false */
  readonly mutable?: boolean;
  /** @default none */
  readonly icon?: string;
  /** @default none (free input) */
  readonly options?: readonly DataCoderParameterOption[];
  /** @default none */
  readonly validation?: DataCoderParameterValidation;
  /**
   * Coder's form control with dynamic parameters (`dropdown`, `radio`, `slider`, `input`,
   * `textarea`, …); the classic form ignores it. `slider` needs a number with a min and max.
   * @default provider's choice
   */
  readonly formType?: string;
  /**
   * How dynamic parameters draw the control (`placeholder`, `disabled`, `label`,
   * `maskInput`, written as Coder's `mask_input`); the classic form ignores it. @default none
   */
  readonly styling?: ParameterStyling;
  /**
   * Whether the value may be a secret (a token, a password): no preset may then set it, since
   * a preset's values ship in the template and in every workspace created from it
   * (presetParameterProblem). @default false
   */
  readonly mayHoldSecrets?: boolean;
  /**
   * Parameter name as Coder stores it (a letter, then letters, digits, `_` or `-`).
   * @default the construct id
   */
  readonly name?: string;
}

/** The keys of `coder_parameter.styling` that Coder's dynamic-parameter form reads. */
export interface ParameterStyling {
  readonly placeholder?: string;
  readonly disabled?: boolean;
  readonly label?: string;
  /** Coder's `mask_input`: the form hides what is typed, as for a password. */
  readonly maskInput?: boolean;
}

/** `coder_parameter.styling`: the JSON object Coder reads, with its snake_case key. */
function stylingJson(styling: ParameterStyling): string {
  return JSON.stringify({
    placeholder: styling.placeholder,
    disabled: styling.disabled,
    label: styling.label,
    mask_input: styling.maskInput,
  });
}

/**
 * A workspace parameter (`data.coder_parameter.<id>`) with an explicit order.
 * Options' `name` and `value` are required by Coder; options are passed through.
 */
export class WorkspaceParameter extends Construct {
  public readonly parameter: DataCoderParameter;
  /** The parameter's name in Coder (what presets and stored values refer to). */
  public readonly name: string;
  /** Its type, options and validation, for checks of preset values at synth. */
  public readonly definition: Pick<
    WorkspaceParameterProps,
    "options" | "validation" | "mayHoldSecrets"
  > & {
    readonly type: ParameterType;
  };

  constructor(scope: Construct, id: string, props: WorkspaceParameterProps) {
    super(scope, id);
    // The construct id is the name unless one is given, so a bad id is a bad name too.
    checkConstructProp(this, "name", props.name ?? id, CODER_PARAMETER_NAME);
    if (!Number.isInteger(props.order) || props.order < 0) {
      throw new Error(
        `${this.node.path}: order must be a non-negative integer, got ${props.order}`,
      );
    }
    if (props.options && props.default !== undefined) {
      const values = props.options.map((o) => o.value);
      if (!values.includes(props.default)) {
        throw new Error(
          `${this.node.path}: default "${props.default}" is not one of the options (${values.join(", ")})`,
        );
      }
    }
    if (props.formType === "slider") {
      const v = props.validation;
      if ((props.type ?? "string") !== "number" || v?.min === undefined || v?.max === undefined) {
        throw new Error(
          `${this.node.path}: formType "slider" needs type "number" and a validation with min and max (the slider's ends)`,
        );
      }
    }
    this.name = props.name ?? id;
    this.definition = {
      type: props.type ?? "string",
      options: props.options,
      validation: props.validation,
      mayHoldSecrets: props.mayHoldSecrets ?? false,
    };
    this.parameter = new DataCoderParameter(this, id, {
      name: props.name ?? id,
      displayName: props.displayName,
      description: props.description,
      type: props.type ?? "string",
      default: props.default,
      mutable: props.mutable ?? false,
      icon: props.icon,
      order: props.order,
      option: props.options ? [...props.options] : undefined,
      validation: props.validation,
      formType: props.formType,
      styling: props.styling === undefined ? undefined : stylingJson(props.styling),
    });
  }

  /** The value as a string token. */
  get value(): string {
    return this.parameter.value;
  }

  /** The value as a number (for `type: "number"` parameters). */
  get numberValue(): number {
    return Fn.tonumber(this.parameter.value);
  }
}
