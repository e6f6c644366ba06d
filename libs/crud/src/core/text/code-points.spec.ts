import { longerThan } from './code-points';

describe('longerThan', () => {
  const emoji = '\u{1F600}';

  it('counts a surrogate pair as one character', () => {
    expect(longerThan(emoji.repeat(4), 4)).toBe(false);
    expect(longerThan(emoji.repeat(5), 4)).toBe(true);
    expect(longerThan(`${emoji.repeat(3)}ab`, 4)).toBe(true);
    expect(longerThan(`${emoji.repeat(3)}a`, 4)).toBe(false);
  });

  it('counts plain text by its length, and a lone surrogate as one character', () => {
    expect(longerThan('abcd', 4)).toBe(false);
    expect(longerThan('abcde', 4)).toBe(true);
    expect(longerThan('\ud800\ud800\ud800\ud800', 4)).toBe(false);
    expect(longerThan('\ud800\ud800\ud800\ud800\ud800', 4)).toBe(true);
  });
});
