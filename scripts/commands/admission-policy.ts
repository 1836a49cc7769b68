// `npm run admission-policy [-- --config <file>] [--out <file>] [--network-namespace <ns>]…
// [--provisioner-user <username>]`: prints (or writes) the ValidatingAdmissionPolicies and
// bindings operators apply on Harvester for packer-builder (docs/templates/packer-builder.md):
// the build namespaces' policy (the identityNamespace setting of the operator configuration,
// else packer-dev, and every namespace the template creates), and with --provisioner-user the
// policy that limits the /kubeconfig.yaml identity to what the template makes with it.
import * as fs from "fs";
import { admissionPolicyFile } from "../../app/admission-policy";

function option(argv: readonly string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  if (at < 0) return undefined;
  const value = argv[at + 1];
  if (value === undefined || value.startsWith("--")) throw new Error(`${name} needs a value`);
  return value;
}

/** Every value of a repeatable option, in order; undefined when it is not given. */
function options(argv: readonly string[], name: string): string[] | undefined {
  const values = argv.flatMap((arg, i) => (arg === name ? [option(argv.slice(i), name)!] : []));
  return values.length > 0 ? values : undefined;
}

try {
  const argv = process.argv.slice(2);
  const content = admissionPolicyFile({
    configFile: option(argv, "--config"),
    networkNamespaces: options(argv, "--network-namespace"),
    provisionerUser: option(argv, "--provisioner-user"),
  });
  const out = option(argv, "--out");
  if (out !== undefined) {
    fs.writeFileSync(out, content);
    process.stderr.write(`wrote ${out}\n`);
  } else {
    process.stdout.write(content);
  }
} catch (e) {
  process.stderr.write(`admission-policy failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
