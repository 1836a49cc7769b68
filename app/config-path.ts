/**
 * Which operator configuration file a command uses, and the error type of configuration
 * problems. Kept apart from the parser (operator-config.ts, which loads the core and cdktf
 * with it), so that `npm run preview` can find the file, to key its cache of synthesized
 * templates, without loading what synthesizes.
 */
import * as fs from "fs";
import * as path from "path";

/** File looked for at the project root when no path is given. */
export const DEFAULT_CONFIG_FILE = "coder-cdktf.jsonc";
/** Environment variable naming the config file. */
export const CONFIG_ENV_VAR = "CODER_CDKTF_CONFIG";

/** A configuration error; the message starts with `file:line:column:`. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * Which config file to use: an explicit path (flag), else $CODER_CDKTF_CONFIG, else
 * coder-cdktf.jsonc at the project root when it exists, else none (built-in defaults).
 * An explicit path that does not exist is an error, not a silent fallback.
 */
export function resolveConfigPath(
  root: string,
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const given = explicit ?? (env[CONFIG_ENV_VAR] || undefined);
  if (given !== undefined) {
    const file = path.resolve(given);
    if (!fs.existsSync(file)) {
      const from = explicit !== undefined ? "--config" : `$${CONFIG_ENV_VAR}`;
      throw new ConfigError(`${given}: configuration file not found (named by ${from})`);
    }
    return file;
  }
  const fallback = path.join(root, DEFAULT_CONFIG_FILE);
  return fs.existsSync(fallback) ? fallback : undefined;
}
