/**
 * Coder's limit on a template name, in a module of its own: `npm run new-template` checks an
 * id against it without loading cdktf (lib/core/validate.ts re-exports it with its rule).
 */
export const MAX_CODER_TEMPLATE_NAME = 31;
