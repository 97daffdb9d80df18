// A small seeded pseudo-random generator (mulberry32) so that the same seed always gives the same data.

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  bool(probability?: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A new array with `count` distinct items (order randomised). */
  sample<T>(items: readonly T[], count: number): T[];
  /** `prefix` + "_" + 12 lowercase letters/digits. */
  id(prefix: string): string;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const seen = new Set<string>();
  return {
    next,
    int,
    bool: (probability = 0.5) => next() < probability,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[int(0, items.length - 1)] as T;
    },
    sample<T>(items: readonly T[], count: number): T[] {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
      }
      return copy.slice(0, Math.min(count, copy.length));
    },
    id(prefix: string): string {
      for (;;) {
        let suffix = "";
        for (let i = 0; i < 12; i++) suffix += alphabet[int(0, alphabet.length - 1)];
        const id = `${prefix}_${suffix}`;
        if (!seen.has(id)) {
          seen.add(id);
          return id;
        }
      }
    },
  };
}

/** FNV-1a, to derive a per-tenant seed from the sandbox seed and the tenant's name. */
export function hashString(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
