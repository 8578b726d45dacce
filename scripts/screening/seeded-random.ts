/** A seeded generator (mulberry32): the same draws on every run, so generated names come back alike. */
export function seededRandom(seed: number): { random: () => number; pick: <T>(xs: readonly T[]) => T } {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { random, pick: (xs) => xs[Math.floor(random() * xs.length)]! };
}
