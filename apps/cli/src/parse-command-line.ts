import { parseArgs, type ParseArgsConfig } from 'node:util';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** What `parseArgs` gives for these options: `values` typed from the options, and `positionals`. */
export type ParsedCommandLine<Options extends OptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: Options; strict: true; allowPositionals: boolean }>
>;
import { UsageError } from './usage-error.js';

/**
 * True when `-h` or `--help` appears before a `--` terminator. Checked before parsing, so that
 * `reward-lens score --typo --help` shows the help instead of complaining about the typo.
 */
export function wantsHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

function isParseArgsError(error: unknown): error is Error & { code: string } {
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/** Node's own wording for an unknown option runs to three sentences; the option name is what matters. */
function shortenMessage(error: Error & { code: string }): string {
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(error.message)?.[1];
    if (option !== undefined) return `unknown option ${option}`;
  }
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const argument = /'([^']+)'/.exec(error.message)?.[1];
    if (argument !== undefined) return `unexpected argument ${JSON.stringify(argument)}`;
  }
  return error.message;
}

/** `util.parseArgs` in strict mode, with its errors turned into usage errors for `usage`. */
export function parseCommandLine<const Options extends OptionsConfig>(
  args: readonly string[],
  options: Options,
  usage: string,
  allowPositionals = false,
): ParsedCommandLine<Options> {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals });
  } catch (error) {
    if (isParseArgsError(error)) throw new UsageError(shortenMessage(error), usage);
    throw error;
  }
}
