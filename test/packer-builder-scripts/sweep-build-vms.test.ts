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

  it("never fails the stop when kubectl fails, and says how to clean up by hand", () => {
    box.fake("kubectl", `echo 'Error from server (Forbidden)' >&2; exit 1`);
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig } });
    expect(run.status).toBe(0);
    expect(box.callsOf("kubectl")).toHaveLength(1);
    expect(run.stderr).toContain("kubectl exited with status 1; some VMs may remain");
    expect(run.stderr).toContain(`kubectl -n packer-dev delete vm -l app.coder.io/workspace=${WS}`);
  });

  it("cuts a hanging kubectl after the injected timeout and still succeeds", () => {
    box.fake("kubectl", "exec sleep 30");
    const run = box.run(SCRIPT, {
      env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig, SWEEP_TIMEOUT: "1" },
    });
    expect(run.status).toBe(0);
    expect(run.durationMs).toBeLessThan(5000);
    expect(run.stderr).toContain("kubectl did not finish within 1s");
  });

  it.each([
    ["empty", ""],
    ["not a label value", "coder ws; rm -rf /"],
    ["too long", "a".repeat(64)],
  ])("deletes nothing when the workspace label is %s", (_why, value) => {
    box.fake("kubectl");
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: value, SWEEP_KUBECONFIG: kubeconfig } });
    expect(run.status).toBe(0);
    expect(box.callsOf("kubectl")).toEqual([]);
    expect(run.stderr).toContain("not deleting anything");
  });

  it("skips with a message when the kubeconfig is missing", () => {
    box.fake("kubectl");
    const missing = join(box.root, "nope.yaml");
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: missing } });
    expect(run.status).toBe(0);
    expect(box.callsOf("kubectl")).toEqual([]);
    expect(run.stderr).toContain(`kubeconfig ${missing} is not readable`);
  });

  it("skips with a message when kubectl is not installed", () => {
    const run = box.run(SCRIPT, {
      env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig },
      hide: ["kubectl"],
    });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("kubectl is not installed");
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
