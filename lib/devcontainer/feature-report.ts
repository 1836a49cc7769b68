/**
 * Which Features of devcontainer.json the build did not install, from what it reports: the
 * image's devcontainer.metadata label holds one entry per installed Feature, with its `id`.
 * A Feature the file names without such an entry (a first-party id that does not exist, such
 * as a `flutter` Feature under ghcr.io/devcontainers/features, or a version that was never
 * published) is said as "not found" in the build log, never shown as installed.
 *
 * Clock: apply time (the merged configuration's `features` and the data source's
 * `metadata_json`). Ids are compared without their `:tag` or `@digest`. A label with no Feature
 * entry at all (an older service, or no label) proves nothing, so nothing is said then.
 * Inputs may be anything; the plan never fails on them.
 */
import { Construct } from "../core/cdk";
import { Expr, hcl } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import { quotedForWarning } from "./repository-values";

/** Features the warnings name at most (the file's list to make long). */
export const MAX_MISSING_FEATURES = 20;

/** A Feature reference without its tag or digest (RE2): `ghcr.io/a/b/node:1` → `ghcr.io/a/b/node`. */
const UNTAGGED = "^(.*?)(@[^/]*|:[^/:]*)?$";

export interface DevcontainerFeatureReportProps {
  /** The merged configuration object (DevcontainerSource.configuration); `{}` when absent. */
  readonly configuration: Expr<unknown>;
  /**
   * The image's devcontainer.metadata label entries, decoded (a list; each installed Feature
   * has an entry with its `id`): the template decodes the data source's `metadata_json` once.
   */
  readonly metadata: Expr<unknown[]>;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/** Locals (with `localPrefix`): `installed_features`, `features_not_found`, `feature_report_warnings`. */
export class DevcontainerFeatureReport extends Construct {
  /** Local `features_not_found`: the file's Feature ids the label has no entry for. */
  public readonly notFound: Expr<string[]>;
  /** Local `feature_report_warnings`: one line per Feature not found. */
  public readonly warnings: Expr<string[]>;

  constructor(scope: Construct, id: string, props: DevcontainerFeatureReportProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    const installed = locals.add<string[]>(
      "installed_features",
      hcl`try(distinct([for e in ${props.metadata} : regex(${UNTAGGED}, tostring(e.id))[0] if can(tostring(e.id))]), [])`,
      "The label has one entry per installed Feature: the build's own word on what it installed.",
    );
    const notFound = locals.add<string[]>(
      "features_not_found",
      hcl`length(${installed}) == 0 ? [] : try(slice(
        [for ref, options in ${props.configuration}.features : ref if !contains(${installed}, regex(${UNTAGGED}, ref)[0])],
        0, min(${MAX_MISSING_FEATURES}, length([for ref, options in ${props.configuration}.features : ref if !contains(${installed}, regex(${UNTAGGED}, ref)[0])]))), [])`,
      "Only a label that lists Features proves one missing; an old service's empty label does not.",
    );
    this.notFound = notFound;
    const message =
      "Feature %s: not found. The image's metadata has no entry for it, so the build did not install it (no Feature of that name or version exists, or it failed): what it would add is missing.";
    this.warnings = locals.add<string[]>(
      "feature_report_warnings",
      hcl`[for ref in ${notFound} : format(${message}, ${quotedForWarning(Expr.ref("ref"))})]`,
    );
  }
}
