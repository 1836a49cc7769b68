/**
 * The project's one import point for CDK for Terraform.
 *
 * cdktf is deprecated upstream; its community fork (CDK Terrain, package
 * `cdktn`) is a drop-in rename. Every module of ours, and the generated
 * bindings in .gen/ (rewritten by scripts/gen-providers.js), import cdktf
 * through this file, so that move is a change to this one line.
 */
export * from "cdktf";
export { Construct, Node } from "constructs";
export type { IConstruct } from "constructs";
