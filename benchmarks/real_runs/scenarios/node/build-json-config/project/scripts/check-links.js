'use strict';
const fs = require('node:fs');
const path = require('node:path');

const dir = path.join(__dirname, '..', 'content');
const pages = new Set(fs.readdirSync(dir).map((f) => `/${path.basename(f, '.md')}/`));
let broken = 0;
for (const file of fs.readdirSync(dir)) {
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  for (const [, target] of text.matchAll(/\]\((\/[^)]*)\)/g)) {
    if (!pages.has(target)) {
      broken += 1;
      console.warn(`warning: ${file}: link to ${target} has no page (ignored, see #212)`);
    }
  }
}
console.log(`checked ${pages.size} pages, ${broken} broken link(s) ignored`);
