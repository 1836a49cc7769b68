import { loadOperatorConfig, resolveConfigPath, type OperatorConfig } from "../lib/operator-config";
import { projectRoot } from "../lib/project-root";
import { TEMPLATES } from "./index";

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

/** The value of `--config`, if given. */
export function configFlag(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--config") {
      const value = args[i + 1];
      if (value === undefined || value.startsWith("--")) throw new Error("--config needs a file");
      return value;
    }
    if (args[i].startsWith("--config=")) return args[i].slice("--config=".length);
  }
  return undefined;
}
