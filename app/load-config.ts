import { parseArgs } from "node:util";
import { loadOperatorConfig, resolveConfigPath, type OperatorConfig } from "./operator-config";
import { projectRoot } from "../lib/core/project-root";
import { TEMPLATES } from "./registry";

/**
 * The operator configuration for a command line: `--config <file>` (or `--config=<file>`)
 * in `args`, else $CODER_CDKTF_CONFIG, else coder-cdktf.jsonc at the project root, else
 * none. Throws ConfigError with file:line:column on a bad file.
 */
export function loadConfigFor(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): OperatorConfig | undefined {
  const file = resolveConfigPath(projectRoot(), configFlag(args), env);
  return file === undefined
    ? undefined
    : loadOperatorConfig(
        file,
        TEMPLATES.map((t) => t.id),
      );
}

/** The value of `--config`, if given (other arguments are the command's own). */
export function configFlag(args: readonly string[]): string | undefined {
  const { values } = parseArgs({
    args: [...args],
    options: { config: { type: "string" } },
    allowPositionals: true,
    strict: false,
  });
  if (values.config === undefined) return undefined;
  if (typeof values.config !== "string" || values.config.startsWith("--")) {
    throw new Error("--config needs a file");
  }
  return values.config;
}
