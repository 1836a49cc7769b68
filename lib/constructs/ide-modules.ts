/**
 * Coder's IDE modules as constructs pinned to one tested version each: code-server, VS Code
 * in the browser (Microsoft's server), VS Code Desktop and JetBrains Gateway. Each is
 * `module.<id>`, counted by the workspace's start_count (an IDE of a stopped workspace is
 * useless, and Coder lists its apps only while the workspace runs), bound to one agent.
 * Versions and inputs: docs/lib-reference.md; change a version here, for every template.
 */
import { Construct, type IResolvable } from "../core/cdk";
import { typedConstructId } from "../core/construct-ids";
import { RegistryModule } from "./registry-module";
import type { WorkspaceAgent } from "./workspace-agent";
import type { WorkspaceData } from "./workspace-data";

/** The pinned modules: registry source and exact version. */
export const IDE_MODULES = {
  codeServer: { source: "registry.coder.com/coder/code-server/coder", version: "1.5.2" },
  vscodeWeb: { source: "registry.coder.com/coder/vscode-web/coder", version: "1.6.2" },
  vscodeDesktop: { source: "registry.coder.com/coder/vscode-desktop/coder", version: "1.3.0" },
  jetbrainsGateway: {
    source: "registry.coder.com/coder/jetbrains-gateway/coder",
    version: "1.2.6",
  },
} as const;

/** What every IDE module needs. */
export interface IdeModuleProps {
  readonly workspace: WorkspaceData;
  readonly agent: WorkspaceAgent;
  /** The folder the IDE opens. */
  readonly folder: string;
  /** Position on the workspace page. @default the module's */
  readonly order?: number;
  /** Further inputs of the module, passed as they are. @default {} */
  readonly inputs?: Readonly<Record<string, unknown>>;
}

/** What the IDE modules share: the pinned registry module, counted by start_count. */
export abstract class IdeModule extends Construct {
  public readonly module: RegistryModule;

  protected constructor(
    scope: Construct,
    id: string,
    pinned: { readonly source: string; readonly version: string },
    props: IdeModuleProps,
    inputs: Record<string, unknown>,
  ) {
    super(scope, typedConstructId(scope, "module", id));
    this.module = new RegistryModule(this, id, {
      source: pinned.source,
      version: pinned.version,
      count: props.workspace.startCount,
      inputs: {
        agent_id: props.agent.id,
        folder: props.folder,
        ...(props.order === undefined ? {} : { order: props.order }),
        ...inputs,
        ...props.inputs,
      },
    });
  }
}

export interface CodeServerProps extends IdeModuleProps {
  /** Served on its own subdomain (needs a wildcard access URL). @default false: by path */
  readonly subdomain?: boolean | IResolvable;
}

/** code-server (open-source VS Code in the browser, Open VSX extensions): `module.<id>`. */
export class CodeServer extends IdeModule {
  constructor(scope: Construct, id: string, props: CodeServerProps) {
    super(scope, id, IDE_MODULES.codeServer, props, { subdomain: props.subdomain ?? false });
  }
}

export interface VscodeWebProps extends IdeModuleProps {
  /**
   * The operator accepted Microsoft's VS Code Server license for the users; the module refuses
   * to plan without it, so a false token leaves the module out (count 0).
   */
  readonly acceptLicense: true;
  /** @default false: by path (the module's own default, true, needs a wildcard access URL) */
  readonly subdomain?: boolean | IResolvable;
}

/** VS Code in the browser, Microsoft's server and Marketplace: `module.<id>`. */
export class VscodeWeb extends IdeModule {
  constructor(scope: Construct, id: string, props: VscodeWebProps) {
    super(scope, id, IDE_MODULES.vscodeWeb, props, {
      accept_license: props.acceptLicense,
      subdomain: props.subdomain ?? false,
    });
  }
}

/** The "VS Code Desktop" button (opens the folder through the Coder extension): `module.<id>`. */
export class VscodeDesktop extends IdeModule {
  constructor(scope: Construct, id: string, props: IdeModuleProps) {
    super(scope, id, IDE_MODULES.vscodeDesktop, props, {});
  }
}

export interface JetBrainsGatewayProps extends IdeModuleProps {
  /** Product codes offered in the module's IDE picker, e.g. `["IU", "PY", "GO"]`. @default the module's (all nine) */
  readonly ides?: readonly string[];
  /** The product code preselected in the picker. @default the first of `ides` */
  readonly defaultIde?: string;
}

/**
 * JetBrains IDEs through JetBrains Gateway: `module.<id>`, an external app that opens the
 * workspace in Gateway and a "JetBrains IDE" parameter to pick the IDE.
 */
export class JetBrainsGateway extends IdeModule {
  constructor(scope: Construct, id: string, props: JetBrainsGatewayProps) {
    super(scope, id, IDE_MODULES.jetbrainsGateway, props, {
      // 1.2.6 names the agent in Gateway's link (its resource name is Coder's agent name).
      agent_name: props.agent.agent.node.id,
      ...(props.ides === undefined ? {} : { jetbrains_ides: [...props.ides] }),
      ...(props.defaultIde === undefined ? {} : { default: props.defaultIde }),
    });
  }
}
