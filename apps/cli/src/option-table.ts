/** `{ type: 'string' }` for each name, typed by name so that `parseArgs` still types each value as `string | undefined`. */
export type StringOptions<Names extends string> = { [Name in Names]: { type: 'string' } };

/** `{ type: 'boolean' }` for each name, typed by name so that `parseArgs` still types each value as `boolean | undefined`. */
export type BooleanOptions<Names extends string> = { [Name in Names]: { type: 'boolean' } };

function table<Kind extends 'string' | 'boolean'>(type: Kind, names: readonly string[]): Record<string, { type: Kind }> {
  return Object.fromEntries(names.map((name) => [name, { type }]));
}

/**
 * The flags that take a value, for a `parseArgs` options table: most of a command's flags are
 * plain strings (parsed and checked by the command), and a line for each hid which flags a
 * command takes among the braces. Flags with a short form or `multiple` are written out.
 *
 * @example
 * const options = { ...stringOptions('data', 'out', 'seed'), file: { type: 'string', short: 'f' }, ...helpOption } as const;
 */
export function stringOptions<const Names extends readonly string[]>(...names: Names): StringOptions<Names[number]> {
  return table('string', names) as StringOptions<Names[number]>;
}

/** The flags that are switches (`--force`, `--json`), as `stringOptions` does for flags with values. */
export function booleanOptions<const Names extends readonly string[]>(...names: Names): BooleanOptions<Names[number]> {
  return table('boolean', names) as BooleanOptions<Names[number]>;
}

/** `-h, --help`, which every command takes (`main` shows the help before parsing; the table lets parsing accept it). */
export const helpOption = { help: { type: 'boolean', short: 'h' } } as const;

/** `-q, --quiet`: no progress on stderr. */
export const quietOption = { quiet: { type: 'boolean', short: 'q' } } as const;
