import { Construct } from "../core/cdk";
import { App } from "../../.gen/providers/coder/app";
import { type Expr, hcl } from "../core/expr";
import { IDE_MODULES } from "../constructs/ide-modules";
import { RegistryModule } from "../constructs/registry-module";

// The pins every template shares (lib/constructs/ide-modules.ts).
export const VSCODE_WEB_MODULE = IDE_MODULES.vscodeWeb.source;
export const VSCODE_WEB_VERSION = IDE_MODULES.vscodeWeb.version;
export const VSCODE_DESKTOP_MODULE = IDE_MODULES.vscodeDesktop.source;
export const VSCODE_DESKTOP_VERSION = IDE_MODULES.vscodeDesktop.version;

export interface DevcontainerAppsProps {
  /** 1 while starting, 0 when stopping. */
  readonly startCount: number;
  readonly agentId: string;
  /** The folder both IDEs open. */
  readonly workspaceFolder: Expr<string>;
  /** `var.accept_vscode_license`: vscode-web is Microsoft's server, under its license. */
  readonly acceptVscodeLicense: Expr<boolean>;
  /** `var.subdomain_apps`. */
  readonly subdomainApps: Expr<boolean>;
  /** `var.max_forwarded_ports`: number of port app slots. */
  readonly maxForwardedPorts: Expr<number>;
  /** The forwardPorts with a port number: `{ port, label, protocol, on_auto_forward }`. */
  readonly ports: Expr<unknown[]>;
}

/**
 * What the workspace page offers:
 *
 * - `module.vscode_web`: VS Code in the browser (Microsoft's VS Code Server, extensions from
 *   the Microsoft Marketplace), only when the operator accepted its license;
 * - `module.vscode_desktop`: the "VS Code Desktop" button (through the Coder extension);
 * - `coder_app.forwarded_port`: one app per devcontainer.json forwardPorts entry. Coder
 *   needs a fixed number of apps per template version, so there are `max_forwarded_ports`
 *   slots and the unused ones are hidden.
 */
export class DevcontainerApps extends Construct {
  public readonly vscodeWeb: RegistryModule;
  public readonly vscodeDesktop: RegistryModule;
  public readonly forwardedPorts: App;

  constructor(scope: Construct, id: string, props: DevcontainerAppsProps) {
    super(scope, id);
    this.vscodeWeb = new RegistryModule(this, "vscode_web", {
      source: VSCODE_WEB_MODULE,
      version: VSCODE_WEB_VERSION,
      count: hcl<number>`${props.acceptVscodeLicense} ? ${props.startCount} : 0`.asNumber,
      inputs: {
        agent_id: props.agentId,
        folder: props.workspaceFolder.asString,
        accept_license: true,
        // Inside the persisted home, so a restart does not download the server again.
        install_prefix: "$HOME/.cache/vscode-web",
        subdomain: props.subdomainApps,
      },
    });
    this.vscodeDesktop = new RegistryModule(this, "vscode_desktop", {
      source: VSCODE_DESKTOP_MODULE,
      version: VSCODE_DESKTOP_VERSION,
      count: props.startCount,
      inputs: { agent_id: props.agentId, folder: props.workspaceFolder.asString },
    });

    const ports = props.ports;
    const used = hcl<boolean>`count.index < length(${ports})`;
    const port = hcl`${ports}[count.index]`;
    this.forwardedPorts = new App(this, "forwarded_port", {
      count: hcl<number>`${props.startCount} * ${props.maxForwardedPorts}`.asNumber,
      agentId: props.agentId,
      slug: hcl<string>`format("port-%d", count.index)`.asString,
      displayName:
        hcl<string>`${used} ? try(coalesce(trimspace(${port}.label)), format("Port %d", ${port}.port)) : null`
          .asString,
      icon: hcl<string>`${used} ? "/icon/widgets.svg" : null`.asString,
      url: hcl<string>`${used} ? format("%s://localhost:%s", try(${port}.protocol, null) == "https" ? "https" : "http", tostring(${port}.port)) : "http://localhost:0"`
        .asString,
      hidden: hcl`!(${used})`,
      subdomain: props.subdomainApps,
      share: "owner",
    });
  }
}

/** How many of the ports without an app a {@link portSlotWarnings} line lists by number. */
const LISTED_PORTS = 10;

/**
 * The build-log line for forwardPorts beyond the template's `max_forwarded_ports` app slots
 * (none when they fit): the first ports take the slots, the rest get no app, and the user
 * should hear which.
 *
 * @param ports the forwardPorts with a port number, as {@link DevcontainerAppsProps.ports}
 * @param slots `var.max_forwarded_ports`
 */
export function portSlotWarnings(ports: Expr<unknown[]>, slots: Expr<number>): Expr<string[]> {
  const count = hcl`length(${ports})`;
  const listed = hcl`[for port in slice(${ports}, ${slots}, min(${count}, ${slots} + ${LISTED_PORTS})) : tostring(port.port)]`;
  return hcl<string[]>`try(${count} > ${slots} ? [format(
    "forwardPorts has %d ports and the template %d port apps (its variable max_forwarded_ports): %s %s no app.",
    ${count}, ${slots}, join(", ", ${listed}),
    ${count} > ${slots} + ${LISTED_PORTS} ? format("and %d more get", ${count} - ${slots} - ${LISTED_PORTS}) : "get")] : [], [])`;
}
