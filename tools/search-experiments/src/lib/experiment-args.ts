import { parseArgs } from 'node:util';

/** Flags of an experiment script: `--name value` (or `--name=value`), numbers and comma-separated lists. */
export function experimentArgs<Names extends string>(argv: readonly string[], names: readonly Names[]) {
  // `pnpm run <script> -- --flag` passes the "--" on.
  const { values } = parseArgs({
    args: argv[0] === '--' ? argv.slice(1) : [...argv],
    options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
    strict: true,
    allowPositionals: false,
  });
  const text = (name: Names) => values[name] as string | undefined;
  const number = (name: Names, fallback: number) => {
    const value = text(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed)) throw new Error(`--${name} must be a number, got ${JSON.stringify(value)}`);
    return parsed;
  };
  const list = (name: Names, fallback: readonly number[]) => {
    const value = text(name);
    if (value === undefined) return [...fallback];
    return value.split(',').map((part) => {
      const parsed = Number(part);
      if (part.trim() === '' || !Number.isInteger(parsed) || parsed < 1)
        throw new Error(`--${name} is a comma-separated list of positive integers, got ${JSON.stringify(value)}`);
      return parsed;
    });
  };
  /** `3-6`, or one number for both ends. */
  const range = (name: Names, fallback: readonly [number, number]): [number, number] => {
    const value = text(name);
    if (value === undefined) return [fallback[0], fallback[1]];
    const match = /^(\d+)(?:-(\d+))?$/.exec(value);
    if (!match) throw new Error(`--${name} is a range like 3-6, got ${JSON.stringify(value)}`);
    return [Number(match[1]), Number(match[2] ?? match[1])];
  };
  return { text, number, list, range };
}
