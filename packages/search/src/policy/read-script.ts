import { readFile } from 'node:fs/promises';
import { InvalidInputError } from '@reward-lens/core';
import type { ScriptedStep } from './scripted-policy.js';

/**
 * A scripted policy's file: `{"<steps so far, joined by \n>": ["next step", ...]}` (`""` for the
 * first step), as `createScriptedPolicy` takes it. A file that cannot be read or parsed, or is not
 * such an object, throws an `InvalidInputError` located at `path`.
 */
export async function readScript(path: string): Promise<Record<string, ScriptedStep[]>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new InvalidInputError(`cannot read the scripted policy: ${error instanceof Error ? error.message : String(error)}`, { location: path, cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((steps) => Array.isArray(steps))) {
    throw new InvalidInputError('a scripted policy is an object from a prefix (steps joined by "\\n") to a list of next steps', { location: path });
  }
  return value as Record<string, ScriptedStep[]>;
}
