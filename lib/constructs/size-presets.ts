import type { Construct } from "../core/cdk";
import type { WorkspaceParameter } from "./workspace-parameter";
import { presetParameterProblem, WorkspacePreset } from "./workspace-preset";

/** One size a template offers as a preset: values of its CPU and memory parameters. */
export interface SizePreset {
  /** Construct id and address: `data.coder_workspace_preset.<id>`. */
  readonly id: string;
  readonly name: string;
  /** Cores: an option of the CPU parameter. */
  readonly cpu: string;
  /** GB/GiB: an option of the memory parameter. */
  readonly memory: string;
  /** Exactly one size of a template is the default: the one the parameters default to. */
  readonly default?: boolean;
}

/** The CPU and memory options of the `kubernetes` and `devcontainer` templates. */
export const WORKSPACE_SIZES: readonly string[] = ["2", "4", "6", "8"];

/** Small, medium and large from {@link WORKSPACE_SIZES}; small is what the parameters default to. */
export const STANDARD_SIZE_PRESETS: readonly SizePreset[] = [
  {
    id: "small",
    name: "Small",
    cpu: WORKSPACE_SIZES[0],
    memory: WORKSPACE_SIZES[0],
    default: true,
  },
  { id: "medium", name: "Medium", cpu: WORKSPACE_SIZES[1], memory: WORKSPACE_SIZES[1] },
  { id: "large", name: "Large", cpu: WORKSPACE_SIZES[3], memory: WORKSPACE_SIZES[3] },
];

export interface SizePresetsProps {
  readonly presets: readonly SizePreset[];
  readonly cpu: WorkspaceParameter;
  readonly memory: WorkspaceParameter;
  /** How the memory unit reads in the description ("GB", "GiB"). */
  readonly memoryUnit: string;
}

/**
 * The template's size presets. Each value must be an option of its parameter and exactly one
 * preset the default, or synth fails: a preset naming a size the form does not offer would
 * fail every workspace created from it.
 */
export function sizePresets(scope: Construct, props: SizePresetsProps): WorkspacePreset[] {
  const defaults = props.presets.filter((p) => p.default === true);
  if (defaults.length !== 1) {
    throw new Error(
      `${scope.node.path}: exactly one size preset must be the default, got ${defaults.length}`,
    );
  }
  return props.presets.map((size) => {
    for (const [parameter, value] of [
      [props.cpu, size.cpu],
      [props.memory, size.memory],
    ] as const) {
      const problem = presetParameterProblem(parameter, value);
      if (problem !== undefined) {
        throw new Error(`${scope.node.path}: size preset "${size.name}": ${problem}`);
      }
    }
    return new WorkspacePreset(scope, size.id, {
      name: size.name,
      description: `${size.cpu} CPU cores, ${size.memory} ${props.memoryUnit} memory`,
      default: size.default ?? false,
      parameters: { [props.cpu.name]: size.cpu, [props.memory.name]: size.memory },
    });
  });
}
