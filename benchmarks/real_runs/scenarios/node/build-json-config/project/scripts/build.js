'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
console.log('build: reading content/');
const pages = fs.readdirSync(path.join(root, 'content')).filter((f) => f.endsWith('.md'));
console.log(`build: ${pages.length} pages found`);
const site = require('../config/site.json');
const out = path.join(root, site.outDir);
fs.mkdirSync(out, { recursive: true });
for (const page of pages) {
  const md = fs.readFileSync(path.join(root, 'content', page), 'utf8');
  const html = `<title>${site.title}</title>\n<pre>${md}</pre>\n`;
  fs.writeFileSync(path.join(out, page.replace(/\.md$/, '.html')), html);
}
console.log(`build: wrote ${pages.length} pages to ${site.outDir}/`);
