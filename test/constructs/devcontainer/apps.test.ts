/**
 * DevcontainerApps: the IDE modules, pinned and counted by start_count (vscode-web also by the
 * license), and a fixed number of forwarded-port app slots.
 */
import { TerraformVariable } from "../../../lib/core/cdk";
import { Expr } from "../../../lib/core/expr";
import { coderProvider } from "../../../lib/constructs/providers";
import { WorkspaceAgent } from "../../../lib/constructs/workspace-agent";
import { WorkspaceData } from "../../../lib/constructs/workspace-data";
import {
  DevcontainerApps,
  VSCODE_DESKTOP_MODULE,
  VSCODE_DESKTOP_VERSION,
  VSCODE_WEB_MODULE,
  VSCODE_WEB_VERSION,
} from "../../../lib/devcontainer/apps";
import { synthConstruct, type TerraformJson } from "../construct-stack";

let tf: TerraformJson;
beforeAll(() => {
  tf = synthConstruct((stack) => {
    coderProvider(stack);
    const ws = new WorkspaceData(stack, "workspace");
    const agent = new WorkspaceAgent(stack, "agent");
    const license = new TerraformVariable(stack, "accept_vscode_license", { type: "bool" });
    const subdomain = new TerraformVariable(stack, "subdomain_apps", { type: "bool" });
    const slots = new TerraformVariable(stack, "max_forwarded_ports", { type: "number" });
    const ports = new TerraformVariable(stack, "ports", { type: "any" });
    const folder = new TerraformVariable(stack, "workspace_folder", { type: "string" });
    new DevcontainerApps(stack, "apps", {
      startCount: ws.startCount,
      agentId: agent.id,
      workspaceFolder: Expr.of<string>(folder.stringValue),
      acceptVscodeLicense: Expr.of<boolean>(license.booleanValue),
      subdomainApps: Expr.of<boolean>(subdomain.booleanValue),
      maxForwardedPorts: Expr.of<number>(slots.numberValue),
      ports: Expr.of<unknown[]>(ports.value),
    });
  });
});

it("pins both IDE modules to exact versions", () => {
  expect(tf.module.vscode_web).toMatchObject({
    source: VSCODE_WEB_MODULE,
    version: VSCODE_WEB_VERSION,
  });
  expect(tf.module.vscode_desktop).toMatchObject({
    source: VSCODE_DESKTOP_MODULE,
    version: VSCODE_DESKTOP_VERSION,
  });
  for (const version of [VSCODE_WEB_VERSION, VSCODE_DESKTOP_VERSION]) {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  }
});

it("runs vscode-web only with the license accepted and the workspace started", () => {
  expect(tf.module.vscode_web.count).toBe(
    "${var.accept_vscode_license ? data.coder_workspace.me.start_count : 0}",
  );
  expect(tf.module.vscode_desktop.count).toBe("${data.coder_workspace.me.start_count}");
});

it("opens the workspace folder in both IDEs, for the agent", () => {
  for (const name of ["vscode_web", "vscode_desktop"]) {
    expect(tf.module[name]).toMatchObject({
      agent_id: "${coder_agent.main.id}",
      folder: "${var.workspace_folder}",
    });
  }
  // vscode-web's server is kept in the persisted home; `$HOME` is for the module's shell.
  expect(tf.module.vscode_web).toMatchObject({
    accept_license: true,
    install_prefix: "$HOME/.cache/vscode-web",
    subdomain: "${var.subdomain_apps}",
  });
});

it("has max_forwarded_ports app slots while started, unused ones hidden, shared with the owner only", () => {
  const app = tf.resource.coder_app.forwarded_port;
  expect(app.count).toBe("${data.coder_workspace.me.start_count * var.max_forwarded_ports}");
  expect(app.slug).toBe('${format("port-%d", count.index)}');
  // A slot is used while its index is below the number of ports; the rest are hidden.
  expect(app.hidden).toMatch(/^\$\{!\(+count\.index < length\(var\.ports\)\)+\}$/);
  expect(app.share).toBe("owner");
  expect(app.subdomain).toBe("${var.subdomain_apps}");
  expect(app.url).toContain('"https" ? "https" : "http"');
});
