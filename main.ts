// Entry point of `cdktf synth` and `npm run synth`: writes every template to
// cdktf.out/stacks/<template>/, ready for `coder templates push -d`.
import { synthTemplates } from "./templates/synth";

try {
  for (const t of synthTemplates()) process.stdout.write(`synthesized ${t.dir}\n`);
} catch (e) {
  process.stderr.write(`synth failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
