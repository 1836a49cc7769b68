import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TerraformHarness, type PlanResult } from "@coder-cdktf/terraform-harness";
import { planDecisions, withConfigurationInJson } from "../../support/configuration-in-json";
import { planVariants } from "../../support/plan-variants";
import {
  REQUIRED_VARIABLES,
  TOKEN_SECRET_FIXTURES,
  synthPackerBuilder,
  type SynthesizedPackerBuilder,
} from "./synthesized-template";

// The workspace pod as planned: hardening, mounts, env, resources, image pull secret, and
// the agent's environment for Packer builds.

type Json = any;

function podSpec(plan: PlanResult): Json {
  return (plan.resource("kubernetes_deployment_v1.main[0]").after.spec as Json)[0].template[0]
    .spec[0];
}

describe("packer-builder workspace pod", () => {
  let tf: TerraformHarness;
  let template: SynthesizedPackerBuilder;
  let plan: PlanResult;
  let pod: Json;
  let container: Json;
  /**
   * Plans with the default parameters (cpu 2, memory 4, said explicitly) that differ only in
   * template variables: one Terraform run (test/support/plan-variants.ts).
   */
  let variants: Record<"smallMaxCpu" | "pullSecret", PlanResult>;

  beforeAll(async () => {
    template = synthPackerBuilder();
    tf = await TerraformHarness.start();
    plan = await tf.plan(template.dir, { variables: REQUIRED_VARIABLES });
    pod = podSpec(plan);
    container = pod.container[0];
    variants = await planVariants(
      tf,
      template.dir,
      { variables: REQUIRED_VARIABLES, parameters: { cpu: "2", memory: "4" } },
      { smallMaxCpu: { max_cpu: 0.1 }, pullSecret: { image_pull_secret_name: "registry-creds" } },
    );
  }, 120_000);
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  it("plans the same from one cdk.tf.json, as cdktf writes it, as from its JSON and HCL files", async () => {
    const inJson = withConfigurationInJson(template.dir, template.config);
    try {
      const again = await tf.plan(inJson.dir, { variables: REQUIRED_VARIABLES });
      expect(planDecisions(again)).toEqual(planDecisions(plan));
    } finally {
      inJson.cleanup();
    }
  });

  it("runs as the workspace's own service account, with no token mounted", () => {
    expect(pod.service_account_name).toBe(
      (plan.resource("kubernetes_service_account_v1.workspace_identity").after.metadata as Json)[0]
        .name,
    );
    expect(pod.automount_service_account_token).toBe(false);
  });

  it("runs non-root, without privilege escalation or capabilities, under RuntimeDefault seccomp", () => {
    expect(pod.security_context[0]).toMatchObject({
      run_as_user: "1000",
      run_as_group: "1000",
      fs_group: "1000",
      run_as_non_root: true,
      seccomp_profile: [{ type: "RuntimeDefault" }],
    });
    expect(container.security_context[0]).toMatchObject({
      run_as_non_root: true,
      allow_privilege_escalation: false,
      capabilities: [{ drop: ["ALL"] }],
      seccomp_profile: [{ type: "RuntimeDefault" }],
    });
    expect(container.security_context[0].privileged).not.toBe(true);
    expect(container.security_context[0].capabilities[0].add ?? []).toEqual([]);
  });

  it("mounts the kubeconfig read-only at /etc/packer-kubeconfig.yaml (0400) and the volume at /persistent", () => {
    const mounts = Object.fromEntries(container.volume_mount.map((m: Json) => [m.name, m]));
    expect(mounts["packer-kubeconfig"]).toMatchObject({
      mount_path: "/etc/packer-kubeconfig.yaml",
      sub_path: "config",
      read_only: true,
    });
    expect(mounts.persistent).toMatchObject({ mount_path: "/persistent", read_only: false });
    const volumes = Object.fromEntries(pod.volume.map((v: Json) => [v.name, v]));
    const secretName = (
      plan.resource("kubernetes_secret_v1.packer_kubeconfig").after.metadata as Json
    )[0].name;
    expect(volumes["packer-kubeconfig"].secret[0]).toMatchObject({
      secret_name: secretName,
      default_mode: "0400",
    });
    const claimName = (
      plan.resource("kubernetes_persistent_volume_claim_v1.persistent").after.metadata as Json
    )[0].name;
    expect(volumes.persistent.persistent_volume_claim[0].claim_name).toBe(claimName);
  });

  it("pulls the image if not present, passes the agent token only through env, and sets KUBECONFIG", () => {
    expect(container.image).toBe(REQUIRED_VARIABLES.image);
    expect(container.image_pull_policy).toBe("IfNotPresent");
    const env = Object.fromEntries(container.env.map((e: Json) => [e.name, e.value]));
    expect(Object.keys(env).sort()).toEqual(["CODER_AGENT_TOKEN", "KUBECONFIG"]);
    expect(env.KUBECONFIG).toBe("/etc/packer-kubeconfig.yaml");
  });

  it("starts through the bootstrap script, which execs the agent's init script", async () => {
    expect(container.command.slice(0, 2)).toEqual(["bash", "-c"]);
    // The init script is known after apply only; the mock agent gets one with a quote in it.
    const initScript = "#!/bin/sh\necho 'agent init'\n";
    const applied = await tf.apply(template.dir, {
      variables: { ...REQUIRED_VARIABLES, ca_url: "https://pki.example.com/it's-ca.pem" },
      fixtures: {
        resources: { ...TOKEN_SECRET_FIXTURES, coder_agent: { init_script: initScript } },
      },
    });
    const deployment = applied.resources.find(
      (r) => r.address === "kubernetes_deployment_v1.main[0]",
    );
    const command: string[] = (deployment?.values.spec as Json)[0].template[0].spec[0].container[0]
      .command;
    const script = command[2];
    expect(script.split("\n")[0]).toBe("#!/usr/bin/env bash");
    expect(script).toContain("BOOTSTRAP_CA_URL='https://pki.example.com/it'\\''s-ca.pem'\n");
    expect(script).toContain(
      "BOOTSTRAP_PACKER_PLUGIN_PATH=''\nBOOTSTRAP_PACKER_PLUGIN_SOURCE=''\n",
    );
    expect(script).toContain(
      "BOOTSTRAP_AGENT_INIT_SCRIPT='#!/bin/sh\necho '\\''agent init'\\''\n'\n",
    );
    expect(script).toContain('exec sh -c "${init}"');

    // Run the command as the container would, with a fake curl serving the CA: the
    // prepended values reach the script intact and it ends in the agent's init script.
    const sandbox = mkdtempSync(join(tmpdir(), "packer-bootstrap-"));
    try {
      const fakeCurl = join(sandbox, "curl");
      writeFileSync(
        fakeCurl,
        '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --output ] && out="$2"; shift; done\n' +
          "printf '%s\\n' '-----BEGIN CERTIFICATE-----' 'MIIfake' '-----END CERTIFICATE-----' >\"$out\"\n",
      );
      chmodSync(fakeCurl, 0o755);
      const run = spawnSync(command[0], command.slice(1), {
        env: { PATH: `${sandbox}:/usr/bin:/bin`, HOME: sandbox, TMPDIR: sandbox },
        encoding: "utf8",
        timeout: 20_000,
      });
      expect({ status: run.status, stdout: run.stdout }).toEqual({
        status: 0,
        stdout: "agent init\n",
      });
      expect(run.stderr).toContain(
        "fetching the organization CA from https://pki.example.com/it's-ca.pem",
      );
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  }, 60_000);

  it("limits CPU and memory by the parameters, capped by max_cpu / max_memory", async () => {
    expect(container.resources[0]).toEqual({
      requests: { cpu: "250m", memory: "512Mi" },
      limits: { cpu: "2", memory: "4Gi" },
    });
    const capped = podSpec(
      await tf.plan(template.dir, {
        variables: { ...REQUIRED_VARIABLES, max_cpu: 1, max_memory: 2 },
        parameters: { cpu: "4", memory: "8" },
      }),
    );
    expect(capped.container[0].resources[0].limits).toEqual({ cpu: "1", memory: "2Gi" });
  }, 60_000);

  // The API server refuses a request above its limit (the harness's API step fails such a
  // plan): under 0.25 cores the request follows the limit.
  it("keeps the CPU request within a max_cpu below 0.25", () => {
    const small = podSpec(variants.smallMaxCpu);
    expect(small.container[0].resources[0]).toEqual({
      requests: { cpu: "0.1", memory: "512Mi" },
      limits: { cpu: "0.1", memory: "4Gi" },
    });
  });

  it("adds the image pull secret only when configured", () => {
    expect(pod.image_pull_secrets ?? []).toEqual([]);
    const configured = podSpec(variants.pullSecret);
    expect(configured.image_pull_secrets).toEqual([{ name: "registry-creds" }]);
  });

  it("gives the stop sweep time to finish before the pod is killed", () => {
    const sweep = plan.resource("coder_script.sweep_build_vms").after;
    expect(pod.termination_grace_period_seconds).toBeGreaterThan(sweep.timeout as number);
  });

  it("exports the Packer defaults and the VM label to everything the agent starts", () => {
    const ws = (plan.resource("kubernetes_deployment_v1.main[0]").after.metadata as Json)[0].name;
    expect(plan.resource("coder_agent.main").after.env).toEqual({
      KUBECONFIG: "/etc/packer-kubeconfig.yaml",
      PKR_VAR_kubeconfig: "/etc/packer-kubeconfig.yaml",
      PKR_VAR_namespace: "packer-dev",
      PKR_VAR_output_namespace: "packer-dev",
      PACKER_BUILDER_WORKSPACE: ws,
      PACKER_BUILDER_VM_LABEL: `app.coder.io/workspace=${ws}`,
    });
  });

  it("shows CPU, memory, the /persistent disk and the build namespace", () => {
    const metadata = plan.resource("coder_agent.main").after.metadata as Json[];
    expect(metadata.map((m) => m.display_name)).toEqual([
      "CPU Usage",
      "RAM Usage",
      "Persistent Disk",
      "Build namespace",
    ]);
    expect(metadata[2].script).toBe("coder stat disk --path /persistent");
  });

  it("clones on start and sweeps on stop, with the workspace's values", () => {
    const clone = plan.resource("coder_script.clone_repository[0]").after;
    expect(clone).toMatchObject({ run_on_start: true, run_on_stop: false });
    expect(clone.script).toContain(`CLONE_REPO_URL='${REQUIRED_VARIABLES.repository_url}'\n`);
    const sweep = plan.resource("coder_script.sweep_build_vms").after;
    const ws = (plan.resource("kubernetes_deployment_v1.main[0]").after.metadata as Json)[0].name;
    expect(sweep).toMatchObject({ run_on_stop: true, run_on_start: false });
    expect(sweep.script).toContain(`SWEEP_WORKSPACE='${ws}'\nSWEEP_NAMESPACE='packer-dev'\n`);
  });

  it("refuses a Harvester API server that is not an https URL", async () => {
    await expect(
      tf.plan(template.dir, {
        variables: { ...REQUIRED_VARIABLES, harvester_api_server: "http://harvester" },
      }),
    ).rejects.toThrow(/https:\/\/ URL without credentials/);
  }, 60_000);
});
