/** Slots a new table starts with, and the most it grows to (two 4-byte arrays: 16 MB at the most). */
const FIRST_SLOTS = 1 << 14;
export const MAX_SLOTS = 1 << 21;

/**
 * Where a record probably is: its sequence number, found by a 32-bit hash of its family and id in
 * a table of fixed-size slots, one entry a slot (a newer one overwrites an older one). A hint is
 * never trusted: the caller reads the record at that sequence number and checks its family and
 * id, which never change under a sequence number (AUTOINCREMENT never hands one out twice), and
 * looks the key up in the (family, id) index when the hint is missing or wrong.
 *
 * Why: at 1M records a lookup by id misses SQLite's page cache twice, once in the (family, id)
 * index's leaves and once in the table's; the hint saves the first (README "Performance", W1 at
 * 1M). The table holds no ids, so its memory does not grow with them: 8 bytes a slot, at most
 * `MAX_SLOTS` slots, doubling while the keys it was given outnumber half its slots.
 */
export class SeqHints {
  private hashes = new Int32Array(FIRST_SLOTS);
  private seqs = new Uint32Array(FIRST_SLOTS);
  /** Hints set for a key not in its slot: about how many keys have been seen. */
  private keys = 0;

  constructor(private readonly maxSlots = MAX_SLOTS) {}

  /** The hinted sequence number of (family, id), or undefined. */
  get(family: string, id: string): number | undefined {
    const hash = keyHash(family, id);
    const slot = this.slotOf(hash);
    return this.seqs[slot] !== 0 && this.hashes[slot] === hash ? this.seqs[slot] : undefined;
  }

  set(family: string, id: string, seq: number): void {
    // 0 marks an empty slot; a sequence number past 32 bits goes without a hint.
    if (seq < 1 || seq > 0xffffffff) return;
    const hash = keyHash(family, id);
    const slot = this.slotOf(hash);
    if (this.seqs[slot] === 0 || this.hashes[slot] !== hash) this.keys += 1;
    this.put(hash, seq);
    if (this.keys * 2 > this.seqs.length && this.seqs.length < this.maxSlots) this.grow();
  }

  get slots(): number {
    return this.seqs.length;
  }

  private slotOf(hash: number): number {
    return hash & (this.seqs.length - 1);
  }

  private put(hash: number, seq: number): void {
    const slot = this.slotOf(hash);
    this.hashes[slot] = hash;
    this.seqs[slot] = seq;
  }

  private grow(): void {
    const { hashes, seqs } = this;
    this.hashes = new Int32Array(seqs.length * 2);
    this.seqs = new Uint32Array(seqs.length * 2);
    for (let slot = 0; slot < seqs.length; slot += 1) if (seqs[slot] !== 0) this.put(hashes[slot], seqs[slot]);
  }
}

/** FNV-1a over the family, a separator no family holds, and the id. */
function keyHash(family: string, id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < family.length; i += 1) hash = Math.imul(hash ^ family.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ 0xffff, 0x01000193);
  for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return hash | 0;
}
