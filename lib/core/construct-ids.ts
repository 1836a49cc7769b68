/**
 * The naming rule of the building blocks that make one Terraform object (WorkspaceApp,
 * WorkspaceScript, the IDE modules): the id a template gives is the object's address name
 * (`coder_app.<id>`), and the construct itself takes the id `<type>.<id>` in its scope. Ids
 * are therefore unique per type, not per scope: `new WorkspaceApp(this, "jupyterlab")` and
 * `new WorkspaceScript(this, "jupyterlab")` are `coder_app.jupyterlab` and
 * `coder_script.jupyterlab`, side by side.
 */
import type { Construct } from "./cdk";

/** The id the wrapping construct takes: `<type>.<id>`, after checking `id` is a Terraform name. */
export function typedConstructId(scope: Construct, type: string, id: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(id)) {
    throw new Error(
      `${scope.node.path}: ${type} id "${id}" is not a Terraform name (letters, digits, _ and -, not starting with a digit); it becomes the address ${type}.<id>`,
    );
  }
  const taken = scope.node.tryFindChild(`${type}.${id}`);
  if (taken !== undefined) {
    throw new Error(
      `${scope.node.path}: there is already a ${type}.${id} in this scope; give one of them another id`,
    );
  }
  return `${type}.${id}`;
}
