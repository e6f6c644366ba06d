/**
 * Whether `text` holds more than `limit` Unicode code points: the contract's caps count characters,
 * and an emoji is one character although it is two UTF-16 units.
 */
export function longerThan(text: string, limit: number): boolean {
  // A code point is one or two units: within the limit or past twice it, no counting is needed.
  if (text.length <= limit) return false;
  if (text.length > 2 * limit) return true;
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) index++;
    if (++count > limit) return true;
  }
  return false;
}
