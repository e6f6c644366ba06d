import { literalPrefix, regExpMatcher } from './pattern-matcher';

describe('literalPrefix', () => {
  it.each([
    ['host-00012[0-9]', 'host-00012'],
    ['host-.*', 'host-'],
    ['error', 'error'],
    ['ab*c', 'a'],
    ['ab?c', 'a'],
    ['ab+c', 'a'],
    ['ab{2}c', 'a'],
    ['a\\.b', 'a'],
    ['abc(?i)def', 'abc'],
    ['(?i)abc', ''],
    ['abc|abd', ''],
    ['a(b|c)d', ''],
    ['^abc', ''],
    ['.*abc', ''],
    ['[a]bc', ''],
    ['', ''],
    ['é😀x.', 'é😀x'],
    ['😀*', ''],
  ])('%j begins every match with %j', (pattern, prefix) => {
    expect(literalPrefix(pattern)).toBe(prefix);
  });

  // Every text a pattern matches starts with its prefix: the index may only narrow, never lose.
  it('is a prefix of every match', () => {
    const patterns = ['ab*c', 'ab?c', 'ab+c', 'ab{0,2}c', 'abc(?i)DEF', 'a\\.b', 'x(y|z)', 'xy|zw', 'h-[0-9]+', 'é?é', '10\\.0\\..*'];
    const texts = ['ac', 'abc', 'abbc', 'abcdef', 'abcDEF', 'a.b', 'xy', 'xz', 'zw', 'h-12', 'é', 'éé', '10.0.0.1', 'AbC'];
    let matched = 0;
    for (const pattern of patterns) {
      const matches = regExpMatcher(pattern);
      for (const text of texts) {
        if (!matches(text)) continue;
        matched++;
        expect([pattern, text.startsWith(literalPrefix(pattern))]).toEqual([pattern, true]);
      }
    }
    expect(matched).toBeGreaterThan(10);
  });
});
