import { Construct, type IResolvable } from "../core/cdk";
import { App } from "../../.gen/providers/coder/app";
import { typedConstructId } from "../core/construct-ids";
import { checkConstructProp, oneOf, patternRule, wholeNumberBetween } from "../core/validate";
import type { WorkspaceAgent } from "./workspace-agent";

/** Who may open an app besides its owner (Coder's `share`). */
export type AppShare = "owner" | "authenticated" | "organization" | "public";

/** How Coder probes an app before it shows it as healthy. */
export interface AppHealthcheck {
  /** A URL the agent can reach, e.g. `http://localhost:8888/api`. */
  readonly url: string;
  /** Seconds between probes. @default 5 */
  readonly intervalSeconds?: number;
  /** Failed probes before the app is unhealthy. @default 6 */
  readonly threshold?: number;
}

export interface WorkspaceAppProps {
  readonly agent: WorkspaceAgent;
  /** Name on the workspace page. */
  readonly displayName: string;
  /**
   * The app's URL part: lowercase letters, digits and single dashes.
   * @default the construct id, with `_` written as `-`
   */
  readonly slug?: string;
  /** The local URL the app serves, e.g. `http://localhost:8888`. Exactly one of url and command. */
  readonly url?: string;
  /** A command run in a terminal instead of a web app. Exactly one of url and command. */
  readonly command?: string;
  /**
   * How Coder serves a web app: `"subdomain"` (its own host name; needs a wildcard access URL,
   * and suits apps that cannot live under a path prefix) or `"path"`
   * (`/@user/workspace/apps/<slug>`). A token (e.g. a `subdomain_apps` variable) decides at
   * apply time: true for subdomain.
   * @default "path"
   */
  readonly urlMode?: "subdomain" | "path" | IResolvable;
  readonly healthcheck?: AppHealthcheck;
  /** Position on the workspace page (lower first). @default Coder's order (by name) */
  readonly order?: number;
  /** @default "owner" */
  readonly share?: AppShare;
  /** @default none */
  readonly icon?: string;
  /** Groups apps on the workspace page. @default none */
  readonly group?: string;
  /** @default Coder's ("slim-window") */
  readonly openIn?: "slim-window" | "tab";
  /** Instances, e.g. the workspace's start_count (an app of a stopped workspace is useless). @default 1 */
  readonly count?: number;
}

const SLUG = patternRule(
  "a slug: lowercase letters and digits, single dashes between them",
  "^[a-z0-9](-?[a-z0-9])*$",
  32,
);

/**
 * A `coder_app.<id>`: a web app (its local URL, served through Coder by subdomain or by path)
 * or a command, with its healthcheck, order and sharing. The construct id rule is
 * construct-ids.ts's: `coder_app.<id>` and `coder_script.<id>` may share an id.
 */
export class WorkspaceApp extends Construct {
  public readonly app: App;

  constructor(scope: Construct, id: string, props: WorkspaceAppProps) {
    super(scope, typedConstructId(scope, "coder_app", id));
    const slug = props.slug ?? id.replace(/_/g, "-").toLowerCase();
    checkConstructProp(this, "slug", slug, SLUG);
    if ((props.url === undefined) === (props.command === undefined)) {
      throw new Error(`${this.node.path}: give exactly one of url and command`);
    }
    if (props.share !== undefined) {
      checkConstructProp(
        this,
        "share",
        props.share,
        oneOf(["owner", "authenticated", "organization", "public"]),
      );
    }
    if (props.healthcheck !== undefined && props.url === undefined) {
      throw new Error(`${this.node.path}: a healthcheck needs a web app (url)`);
    }
    if (props.order !== undefined) {
      checkConstructProp(this, "order", props.order, wholeNumberBetween(0, 2147483647));
    }
    const mode = props.urlMode ?? "path";
    this.app = new App(this, id, {
      agentId: props.agent.id,
      slug,
      displayName: props.displayName,
      url: props.url,
      command: props.command,
      subdomain:
        props.url === undefined
          ? undefined
          : typeof mode === "string"
            ? mode === "subdomain"
            : mode,
      healthcheck:
        props.healthcheck === undefined
          ? undefined
          : {
              url: props.healthcheck.url,
              interval: props.healthcheck.intervalSeconds ?? 5,
              threshold: props.healthcheck.threshold ?? 6,
            },
      order: props.order,
      share: props.share ?? "owner",
      icon: props.icon,
      group: props.group,
      openIn: props.openIn,
      count: props.count,
    });
  }
}
