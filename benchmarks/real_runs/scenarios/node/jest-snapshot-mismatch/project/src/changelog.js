'use strict';

const SECTIONS = { feat: 'Features', fix: 'Bug Fixes', perf: 'Performance' };

function parseCommit(subject) {
  const m = /^(\w+)(?:\(([^)]+)\))?(!)?: (.+)$/.exec(subject);
  if (!m) return null;
  return { type: m[1], scope: m[2] || null, breaking: Boolean(m[3]), text: m[4] };
}

function render(version, date, subjects) {
  const commits = subjects.map(parseCommit).filter(Boolean);
  const out = [`## ${version} (${date})`, ''];
  for (const [type, title] of Object.entries(SECTIONS)) {
    const items = commits.filter((c) => c.type === type);
    if (items.length === 0) continue;
    out.push(`### ${title}`, '');
    for (const c of items) {
      const scope = c.scope ? `**${c.scope}:** ` : '';
      out.push(`* ${scope}${c.text}${c.breaking ? ' (**BREAKING**)' : ''}`);
    }
    out.push('');
  }
  return out.join('\n');
}

module.exports = { parseCommit, render };
