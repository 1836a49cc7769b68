/**
 * IDEs from Coder's module registry for a workspace with one agent: code-server (VS Code
 * in the browser, open source, extensions from Open VSX) and the JetBrains IDE buttons.
 * Both are pinned releases (the stubs in packages/terraform-harness/src/module-stubs copy the same ones)
 * and counted by start_count: they install and run only in a started workspace.
 */
import { Construct, Token } from "../core/cdk";
import { type Expr, hcl } from "../core/expr";
import { IDE_MODULES } from "./ide-modules";
import { RegistryModule } from "./registry-module";

export const CODE_SERVER_MODULE = IDE_MODULES.codeServer.source;
export const CODE_SERVER_VERSION = IDE_MODULES.codeServer.version;
export const JETBRAINS_MODULE = "registry.coder.com/coder/jetbrains/coder";
export const JETBRAINS_VERSION = "1.4.0";

export interface BrowserIdesProps {
  /** 1 while starting, 0 when stopping. */
  readonly startCount: number;
  readonly agentId: string;
  /** The folder the IDEs open (the home). */
  readonly folder: string;
  /**
   * Whether to offer the JetBrains buttons (`var.*` bool): they need the JetBrains Toolbox
   * on the user's machine and an image the IDE backend runs on (glibc Linux). When on, the
   * module adds a "JetBrains IDEs" parameter where users pick their IDEs.
   */
  readonly jetbrains: Expr<boolean>;
  /** Position of the JetBrains parameter in the workspace form. */
  readonly jetbrainsParameterOrder: number;
}

/** `module.code_server` and `module.jetbrains`. */
export class BrowserIdes extends Construct {
  public readonly codeServer: RegistryModule;
  public readonly jetbrains: RegistryModule;

  constructor(scope: Construct, id: string, props: BrowserIdesProps) {
    super(scope, id);
    this.codeServer = new RegistryModule(this, "code_server", {
      source: CODE_SERVER_MODULE,
      version: CODE_SERVER_VERSION,
      count: props.startCount,
      inputs: { agent_id: props.agentId, folder: props.folder, order: 1 },
    });
    this.jetbrains = new RegistryModule(this, "jetbrains", {
      source: JETBRAINS_MODULE,
      version: JETBRAINS_VERSION,
      count: Token.asNumber(hcl`${props.jetbrains} ? ${props.startCount} : 0`),
      inputs: {
        agent_id: props.agentId,
        folder: props.folder,
        coder_app_order: 2,
        coder_parameter_order: props.jetbrainsParameterOrder,
      },
    });
  }
}
