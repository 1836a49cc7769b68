import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SCRIPTS_DIR, ScriptSandbox } from "./script-sandbox";

const SCRIPT = join(SCRIPTS_DIR, "bootstrap.sh");
const ORG_CA = "-----BEGIN CERTIFICATE-----\nMIIBorg\n-----END CERTIFICATE-----\n";
const SYSTEM_ROOTS = "-----BEGIN CERTIFICATE-----\nMIIBsystem\n-----END CERTIFICATE-----\n";
const CA_URL = "https://pki.example.test/ca.pem";

describe("bootstrap.sh (container entrypoint)", () => {
  let box: ScriptSandbox;
  let order: string;
  let agentOut: string;
  let plugin: string;
  let baseEnv: Record<string, string>;

  beforeEach(() => {
    box = new ScriptSandbox();
    order = join(box.root, "order");
    agentOut = join(box.root, "agent-env");
    plugin = box.write("opt/packer-plugin-harvester", "binary", 0o755);
    // curl writes the PEM to the file after --output; packer and the agent note that they ran.
    box.fake(
      "curl",
      `echo curl >>'${order}'
while (($#)); do if [[ $1 == --output ]]; then printf '%s' "$CA_BODY" >"$2"; fi; shift; done`,
    );
    box.fake("packer", `echo packer >>'${order}'`);
    baseEnv = {
      CA_BODY: ORG_CA,
      BOOTSTRAP_CA_URL: CA_URL,
      BOOTSTRAP_SYSTEM_CA_BUNDLE: box.write("etc/ssl/roots.pem", SYSTEM_ROOTS),
      BOOTSTRAP_PACKER_PLUGIN_PATH: plugin,
      BOOTSTRAP_PACKER_PLUGIN_SOURCE: "github.com/example/harvester",
      // The "agent": records its pid and the environment it was started with.
      BOOTSTRAP_AGENT_INIT_SCRIPT: `echo agent >>'${order}'; echo "pid=$$" >'${agentOut}'; env >>'${agentOut}'`,
    };
  });
  afterEach(() => box.remove());

  const steps = () => (existsSync(order) ? readFileSync(order, "utf8").trim().split("\n") : []);
  const agentEnv = () => readFileSync(agentOut, "utf8");

  it("fetches the CA, installs the plugin, then execs the agent in its own process", () => {
    const run = box.run(SCRIPT, { env: baseEnv });
    expect(run.status).toBe(0);
    expect(steps()).toEqual(["curl", "packer", "agent"]);
    // exec: the agent's shell is the very process that ran the script.
    expect(agentEnv()).toContain(`pid=${run.pid}\n`);

    const curlArgv = box.callsOf("curl")[0];
    expect(curlArgv).toEqual(
      expect.arrayContaining(["--fail", "--max-time", "30", "--url", CA_URL]),
    );
    expect(box.callsOf("packer")).toEqual([
      ["plugins", "install", "--path", plugin, "github.com/example/harvester"],
    ]);

    const bundle = join(box.home, ".local/share/packer-builder/ca-bundle.pem");
    expect(readFileSync(bundle, "utf8")).toBe(SYSTEM_ROOTS + ORG_CA);
    for (const name of [
      "SSL_CERT_FILE",
      "CURL_CA_BUNDLE",
      "GIT_SSL_CAINFO",
      "REQUESTS_CA_BUNDLE",
    ]) {
      expect(agentEnv()).toContain(`${name}=${bundle}\n`);
    }
    expect(agentEnv()).not.toContain("BOOTSTRAP_AGENT_INIT_SCRIPT=");
    expect(run.stderr).toContain(
      "bootstrap: fetching the organization CA from https://pki.example.test/ca.pem",
    );
    expect(run.stderr).toContain("bootstrap: starting the Coder agent");
  });

  it("skips the CA steps when no CA URL is configured", () => {
    const run = box.run(SCRIPT, { env: { ...baseEnv, BOOTSTRAP_CA_URL: "" } });
    expect(run.status).toBe(0);
    expect(steps()).toEqual(["packer", "agent"]);
    expect(agentEnv()).not.toContain("SSL_CERT_FILE=");
    expect(run.stderr).toContain("no organization CA configured");
  });

  it("skips the plugin step when no plugin path is configured", () => {
    const run = box.run(SCRIPT, { env: { ...baseEnv, BOOTSTRAP_PACKER_PLUGIN_PATH: "" } });
    expect(run.status).toBe(0);
    expect(steps()).toEqual(["curl", "agent"]);
  });

  it("names the CA fetch when the download fails, and never starts the agent", () => {
    box.fake("curl", `echo "curl: (6) Could not resolve host" >&2; exit 6`);
    const run = box.run(SCRIPT, {
      env: { ...baseEnv, BOOTSTRAP_CA_URL: "https://user:hunter2@pki.example.test/ca.pem?sig=abc" },
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(
      'bootstrap: step "ca-fetch" failed: could not download https://pki.example.test/ca.pem',
    );
    // Credentials and query strings in the URL are not logged.
    expect(run.stderr).not.toMatch(/hunter2|sig=abc/);
    expect(box.callsOf("packer")).toEqual([]);
    expect(existsSync(agentOut)).toBe(false);
  });

  it("names the CA fetch when the answer is not a PEM certificate", () => {
    const run = box.run(SCRIPT, { env: { ...baseEnv, CA_BODY: "<html>login</html>" } });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('step "ca-fetch" failed');
    expect(run.stderr).toContain("did not return a PEM certificate");
    expect(existsSync(agentOut)).toBe(false);
  });

  it("checks a pinned SHA-256 of the CA", () => {
    const good = createHash("sha256").update(ORG_CA).digest("hex");
    const pinned = box.run(SCRIPT, {
      env: { ...baseEnv, BOOTSTRAP_CA_SHA256: good.toUpperCase() },
    });
    expect(pinned.status).toBe(0);

    const wrong = box.run(SCRIPT, { env: { ...baseEnv, BOOTSTRAP_CA_SHA256: "0".repeat(64) } });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr).toContain(`step "ca-fetch" failed: SHA-256 of the CA is ${good}`);
  });

  /** The value after `flag` in curl's argv. */
  const curlFlag = (flag: string) => {
    const argv = box.callsOf("curl")[0];
    return argv[argv.indexOf(flag) + 1];
  };

  it("fetches over https only, and never follows a redirect to plain http", () => {
    const run = box.run(SCRIPT, { env: baseEnv });
    expect(run.status).toBe(0);
    expect(curlFlag("--proto")).toBe("=https");
    expect(curlFlag("--proto-redir")).toBe("=https");
  });

  it.each([
    ["http://pki.example.test/ca.pem", "is plain http and no SHA-256 pins the CA"],
    ["HTTP://pki.example.test/ca.pem", "is plain http and no SHA-256 pins the CA"],
    ["ftp://pki.example.test/ca.pem", "is not an https:// URL"],
  ])("refuses %s without a pin, before any download", (url, reason) => {
    const run = box.run(SCRIPT, { env: { ...baseEnv, BOOTSTRAP_CA_URL: url } });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`bootstrap: step "ca-fetch" failed: ${url}`);
    expect(run.stderr).toContain(reason);
    expect(box.callsOf("curl")).toEqual([]);
    expect(existsSync(agentOut)).toBe(false);
  });

  it("takes plain http with a pin, still refusing redirects to http, and checks the pin", () => {
    const url = "http://pki.example.test/ca.pem";
    const good = createHash("sha256").update(ORG_CA).digest("hex");
    const run = box.run(SCRIPT, {
      env: { ...baseEnv, BOOTSTRAP_CA_URL: url, BOOTSTRAP_CA_SHA256: good },
    });
    expect(run.status).toBe(0);
    expect(curlFlag("--proto")).toBe("=http,https");
    expect(curlFlag("--proto-redir")).toBe("=https");
    expect(run.stderr).toContain(", pinned)");

    const planted = box.run(SCRIPT, {
      env: { ...baseEnv, BOOTSTRAP_CA_URL: url, BOOTSTRAP_CA_SHA256: "0".repeat(64) },
    });
    expect(planted.status).not.toBe(0);
    expect(planted.stderr).toContain("SHA-256 of the CA is");
  });

  it("refuses a pin that is not a SHA-256", () => {
    const run = box.run(SCRIPT, { env: { ...baseEnv, BOOTSTRAP_CA_SHA256: "abc" } });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("BOOTSTRAP_CA_SHA256 is not a SHA-256");
    expect(box.callsOf("curl")).toEqual([]);
  });

  it("names the plugin install when packer fails, after the CA steps", () => {
    box.fake("packer", `echo packer >>'${order}'; echo "Error: bad plugin" >&2; exit 1`);
    const run = box.run(SCRIPT, { env: baseEnv });
    expect(run.status).not.toBe(0);
    expect(steps()).toEqual(["curl", "packer"]);
    expect(run.stderr).toContain(
      'bootstrap: step "plugin-install" failed: packer plugins install exited with status 1',
    );
    expect(run.stderr).toContain("Error: bad plugin");
  });

  it("names the plugin install when the binary is not in the image", () => {
    const missing = join(box.root, "opt/missing-plugin");
    const run = box.run(SCRIPT, { env: { ...baseEnv, BOOTSTRAP_PACKER_PLUGIN_PATH: missing } });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(
      `step "plugin-install" failed: plugin binary ${missing} is not in the image`,
    );
    expect(box.callsOf("packer")).toEqual([]);
  });

  it("cuts a hanging plugin install after the injected timeout", () => {
    box.fake("packer", "exec sleep 30");
    const run = box.run(SCRIPT, { env: { ...baseEnv, BOOTSTRAP_PLUGIN_INSTALL_TIMEOUT: "1" } });
    expect(run.status).not.toBe(0);
    expect(run.durationMs).toBeLessThan(5000);
    expect(run.stderr).toContain(
      'step "plugin-install" failed: packer plugins install timed out after 1s',
    );
    expect(existsSync(agentOut)).toBe(false);
  });

  it("names the agent step when no init script is given", () => {
    const run = box.run(SCRIPT, { env: { ...baseEnv, BOOTSTRAP_AGENT_INIT_SCRIPT: "" } });
    expect(run.status).not.toBe(0);
    expect(steps()).toEqual(["curl", "packer"]);
    expect(run.stderr).toContain(
      'bootstrap: step "agent-exec" failed: BOOTSTRAP_AGENT_INIT_SCRIPT is empty',
    );
  });

  it("names the step of an unexpected error too, once", () => {
    box.fake("sha256sum", "exit 3");
    const run = box.run(SCRIPT, { env: { ...baseEnv, BOOTSTRAP_CA_SHA256: "ab".repeat(32) } });
    expect(run.status).toBe(3);
    const reports = run.stderr.split("\n").filter((line) => line.includes("failed"));
    expect(reports).toEqual(['bootstrap: step "ca-fetch" failed: command exited with status 3']);
    expect(existsSync(agentOut)).toBe(false);
  });

  it("names the CA install when the bundle cannot be written", () => {
    box.write("blocker", "");
    const run = box.run(SCRIPT, {
      env: { ...baseEnv, BOOTSTRAP_CA_BUNDLE: join(box.root, "blocker/ca.pem") },
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(
      'bootstrap: step "ca-install" failed: cannot create the directory',
    );
    expect(existsSync(agentOut)).toBe(false);
  });
});
