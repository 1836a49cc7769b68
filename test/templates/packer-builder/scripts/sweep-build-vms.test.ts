import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join, relative } from "node:path";
import { SCRIPTS_DIR, ScriptSandbox } from "./script-sandbox";

const SCRIPT = join(SCRIPTS_DIR, "sweep-build-vms.sh");
const WS = "coder-0f9e8d7c-6b5a-4321-8fed-cba987654321";
/**
 * The first kubectl call's --request-timeout under the default 60 s: what is left of the
 * deadline in bash's whole SECONDS, which may tick between setting it and the first call on
 * a loaded machine.
 */
const FIRST_CALL_TIMEOUT = /^(59|60)s$/;
/** Every kind the workspace identity may create, owners before what they own; never images. */
const SWEPT_KINDS = [
  "virtualmachinepools.pool.kubevirt.io",
  "virtualmachineinstancereplicasets.kubevirt.io",
  "virtualmachines.kubevirt.io",
  "virtualmachineinstances.kubevirt.io",
  "datavolumes.cdi.kubevirt.io",
  "persistentvolumeclaims",
];

describe("sweep-build-vms.sh (stop script)", () => {
  let box: ScriptSandbox;
  let kubeconfig: string;
  beforeEach(() => {
    box = new ScriptSandbox();
    kubeconfig = box.write("etc/packer-kubeconfig.yaml", "apiVersion: v1\nkind: Config\n");
  });
  afterEach(() => box.remove());

  it("deletes every kind the workspace made in packer-dev, owners first, bounded and idempotent", () => {
    box.fake("kubectl", `echo 'virtualmachine.kubevirt.io "packer-abc" deleted'`);
    const started = Date.now();
    const run = box.run(SCRIPT, {
      env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig, SWEEP_TIMEOUT: "7" },
    });
    const elapsed = Math.ceil((Date.now() - started) / 1000);
    expect(run.status).toBe(0);
    const calls = box.callsOf("kubectl");
    expect(calls.map((argv) => argv[7])).toEqual(SWEPT_KINDS);
    // The first delete gets what is left of the 7 s budget, in bash's whole SECONDS: 7, or
    // less by the seconds that ticked before it (a tick can come a millisecond after start).
    const firstLimit = Number(/^(\d+)s$/.exec(calls[0][3])?.[1]);
    expect(firstLimit).toBeLessThanOrEqual(7);
    expect(firstLimit).toBeGreaterThanOrEqual(7 - elapsed);
    expect(calls[0]).toEqual([
      "--kubeconfig",
      kubeconfig,
      "--request-timeout",
      `${firstLimit}s`,
      "--namespace",
      "packer-dev",
      "delete",
      "virtualmachinepools.pool.kubevirt.io",
      "--selector",
      `app.coder.io/workspace=${WS}`,
      "--ignore-not-found",
      "--wait=false",
    ]);
    for (const argv of calls) expect(argv.slice(8)).toEqual(calls[0].slice(8));
    expect(run.stderr).toContain(
      `deleting objects labeled app.coder.io/workspace=${WS} in namespace packer-dev`,
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
      expect.stringMatching(FIRST_CALL_TIMEOUT),
      "--namespace",
      "packer-other",
    ]);
  });

  it("fails loudly when the identity is gone (403 Forbidden), naming what it cannot list", () => {
    // What a deleted workspace's sweep meets when its RoleBindings went first.
    box.fake(
      "kubectl",
      `echo 'Error from server (Forbidden): virtualmachines.kubevirt.io is forbidden: User "system:serviceaccount:packer-dev:${WS}" cannot list resource "virtualmachines"' >&2; exit 1`,
    );
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig } });
    expect(run.status).toBe(1);
    const calls = box.callsOf("kubectl");
    expect(calls.map((argv) => argv.slice(6, 9).join(" "))).toEqual([
      ...SWEPT_KINDS.map((kind) => `delete ${kind} --selector`),
      // The optional kinds: may this identity create them at all? (An error is no "no".)
      `get ${SWEPT_KINDS[0]} --selector`,
      `auth can-i create`,
      `get ${SWEPT_KINDS[1]} --selector`,
      `auth can-i create`,
      ...SWEPT_KINDS.slice(2).map((kind) => `get ${kind} --selector`),
    ]);
    expect(calls[6]).toEqual([
      "--kubeconfig",
      kubeconfig,
      "--request-timeout",
      "10s",
      "--namespace",
      "packer-dev",
      "get",
      SWEPT_KINDS[0],
      "--selector",
      `app.coder.io/workspace=${WS}`,
      "--ignore-not-found",
      "--output",
      "name",
    ]);
    expect(run.stderr).toContain("Error from server (Forbidden)");
    expect(run.stderr).toContain(
      `sweep: FAILED: build objects labeled app.coder.io/workspace=${WS} in packer-dev may be left ` +
        `(kubectl exited with status 1; listing ${SWEPT_KINDS.join(" ")} failed too)`,
    );
    expect(run.stderr).toContain(
      `kubectl -n packer-dev delete ${SWEPT_KINDS.join(",")} -l app.coder.io/workspace=${WS}`,
    );
    expect(run.stderr).not.toContain("done:");
  });

  it("names what is left, by kind, when deletes are refused but the objects can still be listed", () => {
    box.fake(
      "kubectl",
      `case " $* " in
  *" delete virtualmachines.kubevirt.io "* | *" delete datavolumes.cdi.kubevirt.io "*)
    echo 'Error from server (Forbidden): cannot delete' >&2; exit 1 ;;
  *" get virtualmachines.kubevirt.io "*)
    printf '%s\n' virtualmachine.kubevirt.io/packer-1a2b virtualmachine.kubevirt.io/packer-3c4d ;;
  *" get datavolumes.cdi.kubevirt.io "*)
    printf '%s\n' datavolume.cdi.kubevirt.io/packer-disk 'bad name; echo pwned' ;;
esac`,
    );
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig } });
    expect(run.status).toBe(1);
    // The kinds after a refused one are still deleted.
    expect(box.callsOf("kubectl").filter((argv) => argv[6] === "delete")).toHaveLength(6);
    expect(run.stderr).toContain(
      "sweep: FAILED: build objects left in packer-dev: virtualmachines/packer-1a2b " +
        "virtualmachines/packer-3c4d datavolumes/packer-disk (kubectl exited with status 1)",
    );
    expect(run.stderr).toContain(
      `to clean up by hand: kubectl -n packer-dev delete virtualmachines.kubevirt.io,datavolumes.cdi.kubevirt.io -l app.coder.io/workspace=${WS}`,
    );
    expect(run.stderr).not.toContain("pwned");
  });

  it("succeeds when a delete failed but nothing is left", () => {
    box.fake("kubectl", `case " $* " in *" delete "*) exit 1 ;; esac`);
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig } });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("nothing labeled");
    expect(run.stderr).not.toContain("FAILED");
  });

  it("skips a kind the cluster does not serve, and an optional one the identity may not create", () => {
    box.fake(
      "kubectl",
      `case " $* " in
  *" delete virtualmachinepools.pool.kubevirt.io "*)
    echo 'error: the server doesn'"'"'t have a resource type "virtualmachinepools"' >&2; exit 1 ;;
  *" virtualmachineinstancereplicasets.kubevirt.io "*)
    case " $* " in *" can-i "*) echo no; exit 1 ;; esac
    echo 'Error from server (Forbidden): forbidden' >&2; exit 1 ;;
esac`,
    );
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig } });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`${SWEPT_KINDS[0]} is not served by this cluster`);
    expect(run.stderr).toContain(`this identity may not create ${SWEPT_KINDS[1]}`);
    expect(run.stderr).not.toContain("FAILED");
    // Only optional kinds get that benefit of the doubt: a refused VM delete is a failure.
    box.fake(
      "kubectl",
      `case " $* " in *" can-i "*) echo no; exit 1 ;; *" virtualmachines.kubevirt.io "*) exit 1 ;; esac`,
    );
    const vms = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig } });
    expect(vms.status).toBe(1);
    expect(vms.stderr).toContain(`listing ${SWEPT_KINDS[2]} failed too`);
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
    // One kubectl for the deletes' budget and one for the listings': the rest had no time left.
    expect(box.callsOf("kubectl").map((argv) => argv[6])).toEqual(["delete", "get"]);
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
      `sweep: FAILED: build objects labeled app.coder.io/workspace=${WS} in packer-dev may be left (kubeconfig ${missing} is not readable)`,
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
    expect(run.stderr).toContain("timeout 'soon' is not a positive number of seconds; using 60");
    expect(box.callsOf("kubectl")[0][3]).toMatch(FIRST_CALL_TIMEOUT);
  });
});

describe("sweep-build-vms.sh stopped at every step", () => {
  let box: ScriptSandbox;
  let kubeconfig: string;
  let cluster: string;
  beforeEach(() => {
    box = new ScriptSandbox();
    kubeconfig = box.write("etc/packer-kubeconfig.yaml", "apiVersion: v1\nkind: Config\n");
    cluster = box.mkdir("cluster");
  });
  afterEach(() => box.remove());

  /** What the workspace left in packer-dev: one object of each kind, and another workspace's VM. */
  function leave(): void {
    for (const kind of SWEPT_KINDS) box.write(`cluster/${kind}/${WS}/packer-1`, "");
    box.write(`cluster/virtualmachines.kubevirt.io/coder-other/packer-2`, "");
    box.write(`cluster/virtualmachineimages.harvesterhci.io/${WS}/packer-image`, "");
  }

  /** Every object still in the fake cluster, as kind/label/name. */
  function objects(): string[] {
    const found = spawnSync("find", [cluster, "-type", "f"], { encoding: "utf8" }).stdout;
    return found
      .split("\n")
      .filter(Boolean)
      .map((file) => relative(cluster, file))
      .sort();
  }

  /**
   * A kubectl over the folder cluster/<kind>/<label value>/<name>. Like the real controllers,
   * a pool (replica set) whose objects are deleted while it exists makes them again, and a VM
   * its instance. Call $STOP_AT stops the script (SIGKILL, as a pod's end does), before its
   * effect when $STOP_BEFORE is set, else right after.
   */
  function fakeCluster(): void {
    box.fake(
      "kubectl",
      [
        `cluster='${cluster}' count="$CALLS_DIR/count"`,
        'n=0; [ ! -e "$count" ] || read -r n < "$count"; n=$((n + 1)); echo "$n" > "$count"',
        "verb=$7 kind=$8 label=${10#app.coder.io/workspace=}",
        "stop() {",
        '  p=$PPID; top=""',
        // The topmost ancestor running the script (kubectl runs under `timeout`).
        '  while [ "$p" -gt 1 ]; do',
        "    ! grep -q sweep-build-vms.sh /proc/$p/cmdline 2>/dev/null || top=$p",
        "    p=$(awk '/^PPid:/ { print $2 }' /proc/$p/status)",
        "  done",
        '  kill -KILL "$top"; exit 137',
        "}",
        '[ "$n" != "${STOP_AT-}" ] || [ -z "${STOP_BEFORE-}" ] || stop',
        'case "$verb" in',
        "  delete)",
        '    rm -rf "${cluster:?}/$kind/$label"',
        '    owner() { [ -n "$(ls -A "$cluster/$1/$label" 2>/dev/null)" ]; }',
        "    case $kind in",
        '      virtualmachines.kubevirt.io) ! owner virtualmachinepools.pool.kubevirt.io || mkdir -p "$cluster/$kind/$label" && touch "$cluster/$kind/$label/pool-vm" ;;',
        "      virtualmachineinstances.kubevirt.io)",
        "        if owner virtualmachineinstancereplicasets.kubevirt.io || owner virtualmachines.kubevirt.io; then",
        '          mkdir -p "$cluster/$kind/$label" && touch "$cluster/$kind/$label/owned-vmi"',
        "        fi ;;",
        "    esac ;;",
        '  get) for f in "$cluster/$kind/$label"/*; do [ ! -e "$f" ] || echo "$kind/${f##*/}"; done ;;',
        "esac",
        '[ "$n" != "${STOP_AT-}" ] || stop',
        "exit 0",
      ].join("\n"),
    );
  }

  const steps = SWEPT_KINDS.flatMap((kind, i) => [
    { call: i + 1, before: true, kind },
    { call: i + 1, before: false, kind },
  ]);
  it.each(steps)(
    "stopped at delete $call ($kind, before its effect: $before): the next start's sweep deletes the rest",
    ({ call, before }) => {
      fakeCluster();
      leave();
      const env = { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig };
      const stopped = box.run(SCRIPT, {
        env: { ...env, STOP_AT: String(call), ...(before ? { STOP_BEFORE: "1" } : {}) },
      });
      expect(stopped.signal).toBe("SIGKILL");
      // The stop's sweep deleted the kinds before the one it was stopped at, in order.
      const kept = SWEPT_KINDS.slice(before ? call - 1 : call).filter(
        (kind) => !kind.startsWith("virtualmachineinstances"),
      );
      expect(objects().filter((o) => o.includes(WS) && !o.includes("image"))).toEqual(
        expect.arrayContaining(kept.map((kind) => `${kind}/${WS}/packer-1`)),
      );
      rmSync(join(box.root, "calls", "count"), { force: true });
      const next = box.run(SCRIPT, { env });
      expect(next.status).toBe(0);
      expect(next.stderr).toContain("done:");
      // Nothing of the workspace's is left but its image; the other workspace's VM stays.
      expect(objects()).toEqual([
        `virtualmachineimages.harvesterhci.io/${WS}/packer-image`,
        "virtualmachines.kubevirt.io/coder-other/packer-2",
      ]);
    },
  );

  it("deletes owners first, so no controller makes again what it deleted", () => {
    fakeCluster();
    leave();
    const run = box.run(SCRIPT, { env: { SWEEP_WORKSPACE: WS, SWEEP_KUBECONFIG: kubeconfig } });
    expect(run.status).toBe(0);
    expect(objects()).toEqual([
      `virtualmachineimages.harvesterhci.io/${WS}/packer-image`,
      "virtualmachines.kubevirt.io/coder-other/packer-2",
    ]);
  });
});
