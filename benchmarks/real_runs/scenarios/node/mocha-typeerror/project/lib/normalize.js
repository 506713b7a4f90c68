'use strict';

// Turns one raw feed entry (RSS or Atom shaped) into { id, title, author, published }.
function normalizeEntry(raw) {
  return {
    id: raw.guid || raw.id,
    title: raw.title.trim(),
    // Bug under test: Atom entries without an <author> element have no `author` object.
    author: raw.author.name,
    published: new Date(raw.pubDate || raw.updated).toISOString(),
  };
}

module.exports = { normalizeEntry };
