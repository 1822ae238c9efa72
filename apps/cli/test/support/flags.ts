/**
 * Command-line flags from an object, in its order: `flags({ n: '4', 'beam-width': '2', json: true })`
 * is `['--n', '4', '--beam-width', '2', '--json']` (`true` is a bare switch). A test reads as the
 * settings it runs with, instead of a column of alternating names and values.
 */
export function flags(values: Record<string, string | true>): string[] {
  return Object.entries(values).flatMap(([name, value]) => (value === true ? [`--${name}`] : [`--${name}`, value]));
}
