// TypeDoc plugin: each module's page documents only what lib/index.ts exports of it, so that
// docs/api/ is the public API one page per module, not every export a module has for the
// rest of the library (typedoc.config.cjs).
import { createRequire } from "node:module";
import { Converter, ReflectionKind } from "typedoc";

const { publicNames } = createRequire(import.meta.url)("./typedoc-public-api-names.cjs");

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const names = publicNames();
    for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
      const exported = names.get(module.name);
      if (exported === undefined) {
        app.logger.error(`typedoc-public-api: ${module.name} is not a module of lib/index.ts`);
        continue;
      }
      for (const child of [...(module.children ?? [])]) {
        if (!exported.has(child.name)) context.project.removeReflection(child);
      }
    }
  });
}
