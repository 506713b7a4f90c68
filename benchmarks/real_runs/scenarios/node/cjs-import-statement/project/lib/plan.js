const path = require("node:path");

function plan(files, applied) {
  return files
    .filter((f) => /^\d{4}_.+\.sql$/.test(path.basename(f)))
    .sort()
    .filter((f) => !applied.has(path.basename(f)));
}

module.exports = { plan };
