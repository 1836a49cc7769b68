/**
 * jest setupFiles: cdktf's creation stack traces are left empty in every test file (see
 * lib/private/creation-stacks.ts): inside jest each one went through jest's source-map
 * formatter, a quarter of the CPU of a test file that synthesizes stacks.
 */
import { skipCdktfCreationStacks } from "../../lib/private/creation-stacks";

skipCdktfCreationStacks();
