import { open, readFile, stat, truncate, type FileHandle } from 'node:fs/promises';
import { InvalidInputError } from '@reward-lens/core';
import type { PrefixValue, PrefixValueStore } from '../labels/label-types.js';
import { defaultStatePath } from './label-output.js';

type JournalLine =
  | { type: 'header'; version: 1; settings: unknown }
  | ({ type: 'prefix'; key: string; fingerprint: string } & PrefixValue)
  | { type: 'done'; key: string; fingerprint: string; outputBytes: number };

const isCount = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** Why a parsed journal line is not one this version writes, or undefined when it is. */
function journalLineError(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'not a JSON object';
  const line = entry as Record<string, unknown>;
  if (line.type === 'header') return line.version === 1 ? undefined : `a header of version ${JSON.stringify(line.version)} (this version writes 1)`;
  if (line.type !== 'prefix' && line.type !== 'done') return `an entry of type ${JSON.stringify(line.type)}`;
  if (typeof line.key !== 'string' || typeof line.fingerprint !== 'string') return 'an entry without a string key and fingerprint';
  if (line.type === 'done') return isCount(line.outputBytes) ? undefined : 'a done entry without a byte count';
  if (
    !isCount(line.k) ||
    !isCount(line.successes) ||
    !isCount(line.rollouts) ||
    ((line.successes as number) > (line.rollouts as number) && line.source === 'rollouts')
  )
    return 'a prefix value whose k, successes and rollouts are not counts';
  if (typeof line.value !== 'number' || !(line.value >= 0 && line.value <= 1)) return 'a prefix value outside [0, 1]';
  if (line.source !== 'rollouts' && line.source !== 'final-answer') return `a prefix value of source ${JSON.stringify(line.source)}`;
  return undefined;
}

export interface JournalOptions {
  outputPath: string;
  /** Default: `<outputPath>.state.jsonl`. */
  statePath?: string;
  /** What the run was started with (rollouts, mode, seed, policy, ...): a resumed run must match. */
  settings: unknown;
}

/** Keys sorted, so that settings compare by content. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1))) : item,
  );
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

/**
 * The state of a resumable labelling run, beside its output: an append-only JSONL journal of
 * every prefix value as it is computed and of every record written (with the output's size after
 * it). Opening it again after a kill reloads the values, cuts the output back to the last record
 * the journal saw finished (a half-written line, or a line written just before the kill, goes),
 * and skips the finished records: nothing is computed twice and nothing is lost. Lines reach the
 * operating system as they are written, so a killed process loses nothing; a machine crash may
 * lose the last lines (which are then recomputed).
 */
export class LabelJournal {
  readonly outputPath: string;
  readonly statePath: string;
  /** What was found on opening: records already written, and prefix values of unfinished records already computed. */
  readonly resumed: { records: number; prefixValues: number };
  private readonly values = new Map<string, Map<number, PrefixValue>>();
  private readonly done = new Map<string, string>();
  private outputBytes: number;

  private constructor(
    options: JournalOptions,
    private readonly state: FileHandle,
    private readonly output: FileHandle,
    loaded: { values: Map<string, Map<number, PrefixValue>>; done: Map<string, string>; outputBytes: number },
  ) {
    this.outputPath = options.outputPath;
    this.statePath = options.statePath ?? defaultStatePath(options.outputPath);
    this.values = loaded.values;
    this.done = loaded.done;
    this.outputBytes = loaded.outputBytes;
    this.resumed = { records: loaded.done.size, prefixValues: [...loaded.values.values()].reduce((sum, map) => sum + map.size, 0) };
  }

  static async open(options: JournalOptions): Promise<LabelJournal> {
    const statePath = options.statePath ?? defaultStatePath(options.outputPath);
    const values = new Map<string, Map<number, PrefixValue>>();
    const done = new Map<string, string>();
    let outputBytes = 0;
    let text: string | null = null;
    try {
      text = await readFile(statePath, 'utf8');
    } catch {
      text = null;
    }
    const fresh = text === null || text.trim() === '';
    if (!fresh) {
      const lines = text!.split('\n');
      let validBytes = 0;
      let header = false;
      for (const [index, line] of lines.entries()) {
        if (line === '') {
          validBytes += index < lines.length - 1 ? 1 : 0;
          continue;
        }
        let entry: JournalLine;
        try {
          entry = JSON.parse(line) as JournalLine;
        } catch (error) {
          // A line cut by a kill can only be the last one; anything else is damage.
          if (index === lines.length - 1) break;
          throw new InvalidInputError(`the state file is damaged at line ${index + 1}`, { location: statePath, cause: error });
        }
        const shapeError = journalLineError(entry);
        if (shapeError !== undefined) throw new InvalidInputError(`the state file is damaged at line ${index + 1}: ${shapeError}`, { location: statePath });
        validBytes += Buffer.byteLength(line) + (index < lines.length - 1 ? 1 : 0);
        if (entry.type === 'header') {
          header = true;
          if (canonical(entry.settings) !== canonical(options.settings)) {
            throw new InvalidInputError(
              `the state file was written by a run with other settings (${canonical(entry.settings)}, now ${canonical(options.settings)}): use the same settings to resume, or remove ${statePath} (and the output) to start afresh`,
              { location: statePath },
            );
          }
        } else if (entry.type === 'prefix') {
          const { type: _type, key, fingerprint, ...value } = entry;
          const perRecord = values.get(`${key}\u0000${fingerprint}`) ?? new Map<number, PrefixValue>();
          perRecord.set(value.k, value);
          values.set(`${key}\u0000${fingerprint}`, perRecord);
        } else if (entry.type === 'done') {
          done.set(entry.key, entry.fingerprint);
          outputBytes = entry.outputBytes;
        }
      }
      if (!header) throw new InvalidInputError('the state file has no header line: it is not a labelling journal', { location: statePath });
      // Finished records need their values no more.
      for (const [key, fingerprint] of done) values.delete(`${key}\u0000${fingerprint}`);
      if (validBytes < Buffer.byteLength(text!)) await truncate(statePath, validBytes);
      const existing = await sizeOf(options.outputPath);
      if (existing === null || existing < outputBytes) {
        throw new InvalidInputError(`the output has ${existing ?? 0} bytes but the state file records ${outputBytes} written: they do not belong together`, {
          location: options.outputPath,
        });
      }
      await truncate(options.outputPath, outputBytes);
    }
    const output = await open(options.outputPath, fresh ? 'w' : 'a');
    const state = await open(statePath, fresh ? 'w' : 'a');
    if (fresh) await state.write(`${JSON.stringify({ type: 'header', version: 1, settings: options.settings })}\n`);
    return new LabelJournal({ ...options, statePath }, state, output, { values, done, outputBytes });
  }

  /** Whether the record was written by an earlier run; a record whose content changed since then is an error. */
  isDone(key: string, fingerprint: string): boolean {
    const recorded = this.done.get(key);
    if (recorded === undefined) return false;
    if (recorded !== fingerprint)
      throw new InvalidInputError(`the input changed since the state file was written (${key} is not what it was)`, { location: this.statePath });
    return true;
  }

  /** The record's prefix values: those loaded, and new ones journalled as they come. */
  storeFor(key: string, fingerprint: string): PrefixValueStore {
    const id = `${key}\u0000${fingerprint}`;
    const perRecord = this.values.get(id) ?? new Map<number, PrefixValue>();
    this.values.set(id, perRecord);
    return {
      get: (k) => perRecord.get(k),
      put: async (value) => {
        perRecord.set(value.k, value);
        await this.state.write(`${JSON.stringify({ type: 'prefix', key, fingerprint, ...value })}\n`);
      },
    };
  }

  /** Appends the record's output lines (none when it was filtered out), then marks it done. */
  async finish(key: string, fingerprint: string, outputLines: string): Promise<void> {
    if (outputLines !== '') {
      const bytes = Buffer.from(outputLines, 'utf8');
      await this.output.write(bytes);
      this.outputBytes += bytes.length;
    }
    await this.state.write(`${JSON.stringify({ type: 'done', key, fingerprint, outputBytes: this.outputBytes })}\n`);
    this.done.set(key, fingerprint);
    this.values.delete(`${key}\u0000${fingerprint}`);
  }

  async close(): Promise<void> {
    await this.output.close();
    await this.state.close();
  }
}
