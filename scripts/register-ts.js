// Lets plain `node` require the project's TypeScript from source (swc, no
// type-checking), for tools that use code outside the build/ tree, such as the
// plan harness under test/ (benchmark, preview). Usage: require("./register-ts").
"use strict";
const fs = require("fs");
const Module = require("module");
const swc = require("@swc/core");

const options = {
  jsc: { parser: { syntax: "typescript" }, target: "es2022" },
  module: { type: "commonjs" },
  sourceMaps: "inline",
};

if (!Module._extensions[".ts"]) {
  Module._extensions[".ts"] = function compileTs(module, filename) {
    const { code } = swc.transformSync(fs.readFileSync(filename, "utf8"), { ...options, filename });
    module._compile(code, filename);
  };
}
