'use strict';

const { parseCommit, render } = require('../src/changelog');

describe('parseCommit', () => {
  test('reads type, scope and breaking flag', () => {
    expect(parseCommit('feat(api)!: drop v1 routes')).toEqual({
      type: 'feat',
      scope: 'api',
      breaking: true,
      text: 'drop v1 routes',
    });
  });

  test('ignores non-conventional subjects', () => {
    expect(parseCommit('Merge branch main')).toBeNull();
  });
});

describe('render', () => {
  const subjects = [
    'feat(cli): add --since flag',
    'fix: handle empty tag list',
    'chore: bump deps',
    'perf(parser)!: stream commits instead of buffering',
    'fix(cli): exit 1 on unknown option',
  ];

  test('groups commits by section', () => {
    expect(render('1.8.0', '2024-05-02', subjects)).toMatchSnapshot();
  });

  test('renders an empty release', () => {
    expect(render('1.8.1', '2024-05-09', ['chore: ci'])).toMatchSnapshot();
  });
});
