/**
 * Runs the project's jest in a child process, on a configuration given inline (rootDir the
 * project, its TypeScript transform, `ci`), for tests of how a jest run behaves: what it
 * reports, which processes it leaves.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { join } from "node:path";
import { projectRoot } from "../../lib/core/project-root";

/**
 * jest with `config` (on top of the project's rootDir, transform and `ci`) and `args`;
 * `options.timeout` (ms) kills a jest that does not end.
 */
export function runJest(
  config: Readonly<Record<string, unknown>>,
  args: readonly string[],
  options: { readonly env?: NodeJS.ProcessEnv; readonly timeout?: number } = {},
): SpawnSyncReturns<string> {
  const root = projectRoot();
  const full = {
    rootDir: root,
    transform: { "^.+\\.ts$": "<rootDir>/scripts/ts.js" },
    ci: true,
    ...config,
  };
  return spawnSync(
    process.execPath,
    [
      join(root, "node_modules", "jest", "bin", "jest.js"),
      "--config",
      JSON.stringify(full),
      ...args,
    ],
    {
      cwd: root,
      encoding: "utf8",
      env: options.env ?? process.env,
      timeout: options.timeout,
    },
  );
}
