/**
 * One value for the whole process, kept on `globalThis` under `Symbol.for('reward-lens.<key>')`,
 * so that every copy of this package a program loads (the ESM and CommonJS builds, each tsup
 * entry's copy, a bundle's inlined copy, two installed versions) shares it: a backend registered
 * through one copy is found by `ProcessRM` from another. A change to the value's shape needs a
 * new key (the keys end in a version for that reason).
 */
export function processWide<T>(key: string, create: () => T): T {
  const slot = Symbol.for(`reward-lens.${key}`);
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  let value = store[slot];
  if (value === undefined) {
    value = create();
    store[slot] = value;
  }
  return value;
}
