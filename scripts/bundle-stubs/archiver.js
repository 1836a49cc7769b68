// Stands in for the "archiver" package in the synth and preview bundles (synth-bundle.js).
// cdktf loads it at start for one purpose, zipping a TerraformAsset of type ARCHIVE, which no
// template here has; loading it and its dependencies (glob, zip streams) was ~14 ms of every
// `npm run synth` and `npm run preview`. A template that adds such an asset fails with this.
"use strict";
module.exports = function archiver() {
  throw new Error(
    "archive assets are not supported by the synth bundle (scripts/bundle-stubs/archiver.js): " +
      "a TerraformAsset of type ARCHIVE needs the real archiver package",
  );
};
