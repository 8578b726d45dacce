// A compact multimap from strings to word ids for the index's deletion keys
// (docs/rules/screening.md#speed): millions of keys, each held as its 32-bit hash and a word id in
// typed arrays (12 bytes a key, where a Map of strings to arrays took about ten times that).
// Two keys with one hash share their ids: a lookup may hand back a few words that are not near,
// which the matcher's comparison of the words then drops.

/** FNV-1a over the key's UTF-16 code units. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class HashedKeys {
  private readonly heads: Int32Array;
  private readonly mask: number;
  private readonly hashes: Uint32Array;
  private readonly ids: Int32Array;
  private readonly next: Int32Array;
  private size = 0;

  /** Room for exactly `capacity` keys: the index counts them before it adds them. */
  constructor(capacity: number) {
    let buckets = 16;
    while (buckets < capacity * 2) buckets *= 2;
    this.heads = new Int32Array(buckets).fill(-1);
    this.mask = buckets - 1;
    this.hashes = new Uint32Array(capacity);
    this.ids = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
  }

  /** Adds the key's id (a key added twice for one word in a row is kept once). */
  add(key: string, id: number): void {
    const h = hash(key);
    const b = h & this.mask;
    const head = this.heads[b]!;
    if (head !== -1 && this.hashes[head] === h && this.ids[head] === id) return;
    const slot = this.size++;
    this.hashes[slot] = h;
    this.ids[slot] = id;
    this.next[slot] = head;
    this.heads[b] = slot;
  }

  /** Calls `found` with each id added under the key (or under a key of the same hash). */
  forEach(key: string, found: (id: number) => void): void {
    const h = hash(key);
    for (let slot = this.heads[h & this.mask]!; slot !== -1; slot = this.next[slot]!) {
      if (this.hashes[slot] === h) found(this.ids[slot]!);
    }
  }
}
