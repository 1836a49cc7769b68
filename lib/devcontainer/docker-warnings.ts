/**
 * What a repository built for Docker loses in a workspace pod, said in the build log (apply
 * time, from the image's merged configuration and lifecycle scripts):
 *
 * - a Docker Compose configuration: the workspace is one container, the image of the Compose
 *   service devcontainer.json names; the other services (databases, caches) do not run;
 * - the docker-in-docker and docker-outside-of-docker Features: they need a privileged
 *   container and a root entrypoint, or the host's Docker socket, and the template never runs
 *   an image's entrypoint and has no host, so `docker` is not available; the warning names the
 *   lifecycle commands that call it.
 *
 * Inputs may be anything; the plan never fails on them.
 */
import { Construct } from "../core/cdk";
import { Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import { quotedForWarning } from "./repository-values";

/** Features that give a container Docker, and cannot in a workspace pod (RE2 and JS). */
export const DOCKER_FEATURE_PATTERN =
  "(^|/)(docker-in-docker|docker-outside-of-docker|docker-from-docker)(:|@|$)";

/**
 * `docker` (or `docker-compose`) where a shell runs it as a command (RE2 and JS, no flags): at
 * the start of a line, after `;`, `&`, `|`, `(`, `{`, a backtick, `$(`, a `sh -c '` of the
 * service's rendering, `then`/`do`/`else`, or a wrapper such as `sudo` or `exec` (with its
 * options); quoted or as /usr/bin/docker too. A word that merely mentions docker (`echo docker
 * is optional`, `npm run docker:build`, `dockerfile-lint`) is no call. Comments are removed
 * first ({@link SHELL_COMMENT_PATTERN}).
 */
// Line breaks and tabs are written \x0A and \x09 (RE2 and JS read both): the pattern stays
// one short line in locals.tf, where `\n` escapes read as text broken onto one line.
export const CALLS_DOCKER_PATTERN =
  "(^|\\x0A|[;&|({`]|\\$\\(|-c ['\"]|\\b(then|do|else|sudo|exec|command|nohup|time|xargs)[ \\x09]+(-[A-Za-z-]+[ \\x09]+)*)" +
  "[ \\x09]*['\"]?((/usr)?(/local)?/bin/)?docker(-compose)?['\"]?([ \\x09;&|)'\"\\x0A]|$)";

/**
 * A shell comment: `#` at the start of a line or after a blank, to the end of the line (RE2
 * and JS, no flags; replace it with `$1`). A `#` inside quotes counts too: that only ever
 * hides a call, never invents one.
 */
export const SHELL_COMMENT_PATTERN = "(^|[ \\x09\\x0A])#[^\\x0A]*";

export interface DevcontainerDockerWarningsProps {
  /** The merged configuration object (DevcontainerSource.configuration); `{}` when absent. */
  readonly configuration: Expr<unknown>;
  /** Hook name → rendered script (DevcontainerSource.lifecycleScripts). */
  readonly lifecycleScripts: Expr<Record<string, string>>;
  /**
   * The image's devcontainer.metadata label entries, decoded (a list; each installed Feature
   * has an entry with its `id`): the template decodes the data source's `metadata_json` once. @default []
   */
  readonly metadata?: Expr<unknown[]>;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/** The most Docker Features one workspace's warnings name. */
export const MAX_DOCKER_FEATURES = 10;

/**
 * dockerComposeFile entries read (the warning quotes them); the rest are counted and left out
 * with a warning, like every list the repository controls (issue 43.5).
 */
export const COMPOSE_FILES_READ = 10;

/**
 * Locals (with `localPrefix`): `docker_feature_set`, `docker_features`, `hooks_calling_docker`,
 * `docker_compose_file`, `docker_compose_files_listed`, `docker_compose_files`, `docker_warnings`.
 */
export class DevcontainerDockerWarnings extends Construct {
  /** Local `docker_warnings`: list(string), the lines for the build log. */
  public readonly warnings: Expr<string[]>;

  constructor(scope: Construct, id: string, props: DevcontainerDockerWarningsProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    const config = props.configuration;
    // From devcontainer.json's features, and from the label entries of the Features the image
    // was built with (a base image's too), which the merged configuration need not list.
    // Deduplicated through map keys (which come sorted), not distinct(), which compares every
    // pair of a list the repository controls; the warnings name MAX_DOCKER_FEATURES at most.
    const featureSet = locals.add<Record<string, boolean>>(
      "docker_feature_set",
      hcl`merge(
        try({ for id, options in ${config}.features : id => true if can(regex(${DOCKER_FEATURE_PATTERN}, id)) }, {}),
        try({ for entry in ${props.metadata ?? []} : tostring(entry.id) => true... if can(regex(${DOCKER_FEATURE_PATTERN}, entry.id)) }, {})
      )`,
      "A base image's Features are in its labels, not the configuration; map keys dedupe linearly.",
    );
    const features = locals.add<string[]>(
      "docker_features",
      hcl`slice(keys(${featureSet}), 0, min(${MAX_DOCKER_FEATURES}, length(keys(${featureSet}))))`,
      "The warnings name 10 Features at most: the list is the repository's to make long.",
    );
    const hooks = locals.add<string[]>(
      "hooks_calling_docker",
      hcl`try(sort([for hook, script in ${props.lifecycleScripts} : hook
        if can(regex(${CALLS_DOCKER_PATTERN}, replace(script, ${`/${SHELL_COMMENT_PATTERN}/`}, "$1")))]), [])`,
      "The warning names the hooks that run docker as a command (comments and words do not count).",
    );
    const compose = locals.add<unknown>(
      "docker_compose_file",
      hcl`try(${config}.dockerComposeFile, null)`,
      "Compose's other services never run in a one-container workspace: the warning says so.",
    );
    // A file name or a list of them, counted and cut without walking the list: Terraform
    // converts a tuple to a list (for join(), or to unify a conditional's two sides) at the
    // square of its length (60,000 entries took ~50 s), so only the first
    // COMPOSE_FILES_READ are ever joined, and no conditional holds the whole list.
    const composeIsList = hcl<boolean>`can(slice(${compose}, 0, 0))`;
    const composeListed = locals.add<number>(
      "docker_compose_files_listed",
      hcl`${composeIsList} ? length(${compose}) : 1`,
      "Counted before anything reads the list, so the warning can say how many were left out.",
    );
    const composeRead = locals.add<string[]>(
      "docker_compose_files",
      hcl`try(slice(${compose}, 0, min(length(${compose}), ${COMPOSE_FILES_READ})), [${compose}])`,
      "Only these are joined: Terraform's join() of a long tuple costs its length squared.",
    );
    const composeFiles = hcl<string>`try(join(", ", ${composeRead}), jsonencode(${composeRead}))`;
    const composeMessage =
      "dockerComposeFile %s: the workspace is one container, the image of the Compose service %s; " +
      "the file's other services (databases, caches, ...) do not run, and their volumes and environment are not set up; " +
      "that service's own cap_add, shm_size and security_opt are not applied either (the workspace reads devcontainer.json: " +
      "set capAdd, runArgs --shm-size and securityOpt there).";
    const dockerMessage =
      "Feature %s cannot give this workspace Docker: it needs a privileged container with a root " +
      "entrypoint, or the host's Docker socket; the workspace has no host and starts Feature entrypoints " +
      "as the remote user (root only through sudo, privileged only with allow_privileged), so `docker` is not available%s.";
    this.warnings = locals.add<string[]>(
      "docker_warnings",
      hcl`concat(
        ${composeListed} > ${COMPOSE_FILES_READ} ? [format("dockerComposeFile lists %d entries; only the first ${COMPOSE_FILES_READ} are read.", ${composeListed})] : [],
        ${compose} != null ? [format(${composeMessage}, ${quotedForWarning(composeFiles)}, ${quotedForWarning(hcl`try(tostring(${config}.service), "(service not set)")`)})] : [],
        [for id in ${features} : format(${dockerMessage}, ${quotedForWarning(Expr.ref("id"))},
          length(${hooks}) > 0 ? format("; these lifecycle commands call it: %s", join(", ", ${hooks})) : "")]
      )`,
    );
  }
}
