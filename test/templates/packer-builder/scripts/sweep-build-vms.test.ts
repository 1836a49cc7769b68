import { join } from "node:path";
import { SCRIPTS_DIR, ScriptSandbox } from "./script-sandbox";

const SCRIPT = join(SCRIPTS_DIR, "sweep-build-vms.sh");
const WS = "coder-0f9e8d7c-6b5a-4321-8fed-cba987654321";

describe("sweep-build-vms.sh (stop script)", () => {
  let box: ScriptSandbox;
  let kubeconfig: string;
  beforeEach(() => {
    box = new ScriptSandbox();
    kubeconfig = box.write("etc/packer-kubeconfig.yaml", "apiVersion: v1\nkind: Config\n");
  });
  afterEach(() => box.remove());

  it("deletes the workspace's VMs in packer-dev with its kubeconfig, bounded and idempotent", () => {
    box.fake("kubectl", `echo 'virtualmachine.kubevirt.io "packer-abc" deleted'`);
    const run = box.run(SCRIPT, {
      env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig, SWEEP_TIMEOUT: "7" },
    });
    expect(run.status).toBe(0);
    expect(box.callsOf("kubectl")).toEqual([
      [
        "--kubeconfig",
        kubeconfig,
        "--request-timeout",
        "7s",
        "--namespace",
        "packer-dev",
        "delete",
        "virtualmachines.kubevirt.io",
        "--selector",
        `app.coder.io/workspace=${WS}`,
        "--ignore-not-found",
        "--wait=false",
      ],
    ]);
    expect(run.stderr).toContain(
      `deleting VMs labeled app.coder.io/workspace=${WS} in namespace packer-dev`,
    );
    expect(run.stderr).toContain('virtualmachine.kubevirt.io "packer-abc" deleted');
    expect(run.stderr).toContain("done:");
  });

  it("falls back to $KUBECONFIG and honors another namespace", () => {
    box.fake("kubectl");
    const run = box.run(SCRIPT, {
      env: { SWEEP_WORKSPACE: WS, KUBECONFIG: kubeconfig, SWEEP_NAMESPACE: "packer-other" },
    });
    expect(run.status).toBe(0);
    const [argv] = box.callsOf("kubectl");
    expect(argv.slice(0, 6)).toEqual([
      "--kubeconfig",
      kubeconfig,
      "--request-timeout",
      "60s",
      "--namespace",
      "packer-other",
    ]);
  });

  it("fails loudly when the identity is gone (403 Forbidden), naming the VMs it cannot list", () => {
    // What a deleted workspace's sweep meets when its RoleBindings went first.
    box.fake(
      "kubectl",
      `echo 'Error from server (Forbidden): virtualmachines.kubevirt.io is forbidden: User "system:serviceaccount:packer-dev:${WS}" cannot list resource "virtualmachines"' >&2; exit 1`,
    );
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig } });
    expect(run.status).toBe(1);
    const calls = box.callsOf("kubectl");
    expect(calls.map((argv) => argv[6])).toEqual(["delete", "get"]);
    expect(calls[1]).toEqual([
      "--kubeconfig",
      kubeconfig,
      "--request-timeout",
      "10s",
      "--namespace",
      "packer-dev",
      "get",
      "virtualmachines.kubevirt.io",
      "--selector",
      `app.coder.io/workspace=${WS}`,
      "--ignore-not-found",
      "--output",
      "name",
    ]);
    expect(run.stderr).toContain("Error from server (Forbidden)");
    expect(run.stderr).toContain(
      `sweep: FAILED: build VMs labeled app.coder.io/workspace=${WS} in packer-dev may be left ` +
        "(kubectl exited with status 1; listing them failed too (status 1))",
    );
    expect(run.stderr).toContain(`kubectl -n packer-dev delete vm -l app.coder.io/workspace=${WS}`);
    expect(run.stderr).not.toContain("done:");
  });

  it("names the VMs left when the delete is refused but they can still be listed", () => {
    box.fake(
      "kubectl",
      `case " $* " in
  *" delete "*) echo 'Error from server (Forbidden): cannot delete' >&2; exit 1 ;;
  *" get "*) printf '%s\n' virtualmachine.kubevirt.io/packer-1a2b virtualmachine.kubevirt.io/packer-3c4d ;;
esac`,
    );
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig } });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "sweep: FAILED: build VMs left in packer-dev: packer-1a2b packer-3c4d (kubectl exited with status 1)",
    );
  });

  it("succeeds when the delete failed but nothing is left", () => {
    box.fake("kubectl", `case " $* " in *" delete "*) exit 1 ;; esac`);
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig } });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("no VM labeled");
    expect(run.stderr).not.toContain("FAILED");
  });

  it("cuts a hanging kubectl after the injected timeouts and fails the sweep", () => {
    box.fake("kubectl", "exec sleep 30");
    const run = box.run(SCRIPT, {
      env: {
        SWEEP_WORKSPACE: WS,
        SWEEP_KUBECONFIG: kubeconfig,
        SWEEP_TIMEOUT: "1",
        SWEEP_LIST_TIMEOUT: "1",
      },
    });
    expect(run.status).toBe(1);
    expect(run.durationMs).toBeLessThan(8000);
    expect(run.stderr).toContain("kubectl did not finish within 1s");
    expect(run.stderr).toContain("sweep: FAILED:");
  });

  it.each([
    ["empty", ""],
    ["not a label value", "coder ws; rm -rf /"],
    ["too long", "a".repeat(64)],
  ])("deletes nothing, and fails, when the workspace label is %s", (_why, value) => {
    box.fake("kubectl");
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: value, SWEEP_KUBECONFIG: kubeconfig } });
    expect(run.status).toBe(1);
    expect(box.callsOf("kubectl")).toEqual([]);
    expect(run.stderr).toContain("not deleting anything");
  });

  it("fails with a message when the kubeconfig is missing", () => {
    box.fake("kubectl");
    const missing = join(box.root, "nope.yaml");
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: missing } });
    expect(run.status).toBe(1);
    expect(box.callsOf("kubectl")).toEqual([]);
    expect(run.stderr).toContain(
      `sweep: FAILED: build VMs labeled app.coder.io/workspace=${WS} in packer-dev may be left (kubeconfig ${missing} is not readable)`,
    );
  });

  it("fails with a message when kubectl is not installed", () => {
    const run = box.run(SCRIPT, {
      env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig },
      hide: ["kubectl"],
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("may be left (kubectl is not installed)");
  });

  it("replaces a timeout that is not a number with the default", () => {
    box.fake("kubectl");
    const run = box.run(SCRIPT, {
      env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig, SWEEP_TIMEOUT: "soon" },
    });
    expect(run.status).toBe(0);
    expect(box.callsOf("kubectl")[0]).toContain("60s");
  });
});
