/**
 * WorkspaceData: the two data sources every template reads, addressed `me`, and the values
 * other constructs take from them.
 */
import { TerraformOutput } from "../../lib/core/cdk";
import { coderProvider } from "../../lib/constructs/providers";
import { WorkspaceData } from "../../lib/constructs/workspace-data";
import { synthConstruct } from "./construct-stack";

it("reads data.coder_workspace.me and data.coder_workspace_owner.me, without arguments", () => {
  const tf = synthConstruct((stack) => {
    coderProvider(stack);
    new WorkspaceData(stack, "workspace");
  });
  expect(tf.data).toEqual({ coder_workspace: { me: {} }, coder_workspace_owner: { me: {} } });
});

it("exposes start_count, id and name of the workspace, and the owner's attributes", () => {
  const tf = synthConstruct((stack) => {
    coderProvider(stack);
    const ws = new WorkspaceData(stack, "workspace");
    new TerraformOutput(stack, "start_count", { value: ws.startCount });
    new TerraformOutput(stack, "id", { value: ws.id });
    new TerraformOutput(stack, "name", { value: ws.name });
    new TerraformOutput(stack, "owner", { value: ws.owner.name });
  });
  expect(tf.output.start_count.value).toBe("${data.coder_workspace.me.start_count}");
  expect(tf.output.id.value).toBe("${data.coder_workspace.me.id}");
  expect(tf.output.name.value).toBe("${data.coder_workspace.me.name}");
  expect(tf.output.owner.value).toBe("${data.coder_workspace_owner.me.name}");
});

it("exists once per template: a second one would take the same addresses", () => {
  expect(() =>
    synthConstruct((stack) => {
      coderProvider(stack);
      new WorkspaceData(stack, "workspace");
      new WorkspaceData(stack, "again");
    }),
  ).toThrow(/address data\.coder_workspace\.me is already used/);
});
