// Entry point of `cdktf synth` and `npm run synth`: writes every template to
// cdktf.out/stacks/<template>/, ready for `coder templates push -d`.
//
// The operator configuration (docs/configuration.md) comes from `--config <file>`,
// $CODER_CDKTF_CONFIG, or coder-cdktf.jsonc at the project root; without one the
// templates' built-in defaults apply.
import { loadConfigFor } from "./app/load-config";
import { synthTemplates } from "./app/synth";

try {
  const config = loadConfigFor(process.argv.slice(2));
  if (config !== undefined) process.stdout.write(`using configuration ${config.file}\n`);
  for (const t of synthTemplates({ config })) process.stdout.write(`synthesized ${t.dir}\n`);
} catch (e) {
  process.stderr.write(`synth failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
