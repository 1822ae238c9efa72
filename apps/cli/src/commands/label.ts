import { rm } from 'node:fs/promises';
import { InvalidInputError, type ProcessRM } from '@reward-lens/core';
import {
  createRecordLabeller,
  labelJobs,
  prmJudge,
  readLabelInput,
  type FailedLabelJob,
  type LabelInput,
  type LabelJob,
  type LabelTally,
  type PrefixValueStore,
  type StepJudge,
  type StepPolicy,
} from '@reward-lens/search';
import { labelFile, labelOutputKind } from '@reward-lens/search/node';
import type { CliStreams } from '../cli-streams.js';
import type { Command } from '../command.js';
import { loadProcessRM, recipeNames } from '../load-process-rm.js';
import { threadsOptionHelp } from '../model-options.js';
import { parseCommandLine } from '../parse-command-line.js';
import { parseIntegerOption } from '../parse-integer-option.js';
import { parseNumberOption } from '../parse-number-option.js';
import { exitCodes } from '../report-error.js';
import { unescapeDelimiter } from '../score/unescape-delimiter.js';
import { UsageError } from '../usage-error.js';
import { writeText } from '../write-text.js';
import { checkReadable } from '../check-readable.js';
import { readJsonRecords, type JsonRecord } from './search-json-records.js';
import { loadPolicy, parsePolicySpec } from './search-policy.js';
import { parsePolicySettings, policyOptions, policyOptionsHelp } from './search-policy-options.js';
import { booleanOptions, helpOption, quietOption, stringOptions } from '../option-table.js';
import { parseChoiceOption } from '../parse-choice-option.js';

const labelUsage = `Usage:
  reward-lens label --completer <policy> --file <solutions.jsonl> [--out <labels.jsonl>] [options]

Monte-Carlo step labels (Math-Shepherd, OmegaPRM): from each prefix s_1..s_k of a solution, the
completer policy rolls out N completions; v_k is the share whose final answer matches the
reference (v_0 from the problem alone; the whole solution's own stated answer is checked, not
rolled out). Records are {"problem", "steps": [...] or "solution": text, "answer" (or
"reference")}. The output is TRL's stepwise-supervision PRM format, one row per line:
{"prompt", "completions", "labels"}.

Policy:
  --completer <policy>      the policy that rolls out completions (--policy is the same flag):
                            organism[:error=<p>,rescue=<r>,kinds=...] (the organism's policy, for
                            organism problems), tiny, a model folder, an OpenAI-compatible server
                            URL, or a scripted policy (.json), as reward-lens search --policy takes
${threadsOptionHelp} (a local completer model and the judge)
${policyOptionsHelp('--completer')}

Labels:
  --rollouts <n>            completions per prefix (default: 8)
  --mode <mode>             sweep (default): every prefix; binary: OmegaPRM's binary search for
                            the first error, about log2 K prefixes (labels up to the first error)
  --labels <kind>           hard (default): 1[v_k > 0], as booleans; soft: v_k (sweep only)
  --max-steps <n>           steps a rollout may add (default: 32)
  --seed <n>                seeds the rollouts (default: 0); every record's rollouts depend only
                            on the settings and the record, so a resumed run draws the same
  --delimiter <text>        splits a "solution" text into steps (default: \\n)

Consensus filtering (keep what the MC labels and a judge agree on):
  --judge <prm>             a PRM as the judge: a model folder, or tiny (the seeded tiny PRM)
  --judge-recipe <name>     how the judge PRM is read (${recipeNames().join(', ')})
  --judge-threshold <t>     a step is right when its score is at least t (default: 0.5)
  --consensus <rule>        solution (default): keep a solution when the MC first error and the
                            judge's are the same step; prefix: keep the leading steps both agree on

Output:
  --out <path>              write the rows here, resumably: a state file <path>.state.jsonl
                            journals every prefix value; run the same command again after a kill
                            and it goes on where it stopped (without --out: stdout, not resumable);
                            an existing <path> that is not such a run is refused
  --force                   replace an existing <path> that is not a resumable run of this command
  --details                 add values (v_0..v_K), firstError, completionsSpent and
                            fullSweepCompletions (and the judge's verdicts) to each row
  -q, --quiet               no progress on stderr
  -h, --help                show this help

A bad record is reported on stderr and the run goes on. Exit status: 0 all records labelled, 1 an
error or some records failed, 2 a usage error.

Examples:
  reward-lens label --completer http://127.0.0.1:8000/v1 --file solutions.jsonl --out labels.jsonl --rollouts 16
  reward-lens label --completer models/policy --file solutions.jsonl --mode binary --details
  reward-lens organism --n 100 --format organism --out solutions.jsonl
  reward-lens label --policy organism:error=0.2,rescue=0.1 --file solutions.jsonl --labels soft --details
`;

const labelOptions = {
  ...policyOptions,
  ...stringOptions('completer', 'policy'),
  file: { type: 'string', short: 'f' },
  ...stringOptions('out'),
  ...booleanOptions('force'),
  ...stringOptions('rollouts', 'mode', 'labels', 'max-steps', 'seed', 'delimiter'),
  ...stringOptions('judge', 'judge-recipe', 'judge-threshold', 'consensus'),
  ...booleanOptions('details'),
  ...quietOption,
  ...helpOption,
} as const;

function parseLabelSettings(args: readonly string[], stdinIsTerminal: boolean) {
  const { values } = parseCommandLine(args, labelOptions, labelUsage);
  if (values.completer !== undefined && values.policy !== undefined) throw new UsageError('give the completer once: --completer or --policy', labelUsage);
  const completer = values.completer ?? values.policy;
  if (completer === undefined || completer === '') throw new UsageError('--completer (or --policy) is required', labelUsage);
  if (values.file === undefined && stdinIsTerminal) throw new UsageError('no input: give --file <path>, or JSONL on stdin', labelUsage);
  const mode = parseChoiceOption('--mode', values.mode, ['sweep', 'binary'], labelUsage, 'sweep');
  const labels = parseChoiceOption('--labels', values.labels, ['hard', 'soft'], labelUsage, 'hard');
  if (labels === 'soft' && mode === 'binary')
    throw new UsageError('--labels soft needs --mode sweep: binary search computes v_k at only a few prefixes', labelUsage);
  parseChoiceOption('--judge-recipe', values['judge-recipe'], recipeNames(), labelUsage);
  if (values.judge === undefined && (values['judge-threshold'] !== undefined || values.consensus !== undefined || values['judge-recipe'] !== undefined))
    throw new UsageError('--judge-threshold, --judge-recipe and --consensus need --judge', labelUsage);
  const delimiter = unescapeDelimiter(values.delimiter ?? '\\n');
  if (delimiter === '') throw new UsageError('--delimiter must not be empty', labelUsage);
  const settings = {
    completer,
    rollouts: parseIntegerOption('--rollouts', values.rollouts, { minimum: 1, maximum: 100_000 }, labelUsage) ?? 8,
    mode,
    labels,
    maxSteps: parseIntegerOption('--max-steps', values['max-steps'], { minimum: 1, maximum: 100_000 }, labelUsage) ?? 32,
    seed: parseIntegerOption('--seed', values.seed, { minimum: 0, maximum: 0xffff_ffff }, labelUsage) ?? 0,
    delimiter,
    ...(values.judge !== undefined
      ? {
          judge: values.judge,
          judgeRecipe: values['judge-recipe'] ?? null,
          judgeThreshold: parseNumberOption('--judge-threshold', values['judge-threshold'], Number.isFinite, 'a number', labelUsage) ?? 0.5,
          consensus: parseChoiceOption('--consensus', values.consensus, ['solution', 'prefix'], labelUsage, 'solution'),
        }
      : {}),
  };
  const policySettings = parsePolicySettings(values, labelUsage);
  return {
    settings,
    // Everything that changes a row: a resumed run must match it (the policy's sampling included).
    journalSettings: {
      ...settings,
      policy: { temperature: policySettings.temperature, topP: policySettings.topP, maxSolutionTokens: policySettings.maxSolutionTokens },
    },
    policySettings,
    policy: parsePolicySpec(completer, labelUsage),
    file: values.file,
    out: values.out,
    force: values.force === true,
    details: values.details === true,
    quiet: values.quiet === true,
  };
}

type Settings = ReturnType<typeof parseLabelSettings>;

function toJob(item: JsonRecord, delimiter: string): LabelJob {
  if ('error' in item) return { key: item.label, text: item.text, error: item.error };
  const input = readLabelInput(item.value, delimiter);
  if (typeof input === 'string') return { key: item.label, text: item.text, error: { code: InvalidInputError.code, message: input } };
  return { key: item.label, text: item.text, input };
}

function labeller(policy: StepPolicy, judge: StepJudge | undefined, settings: Settings, tally: LabelTally) {
  const { rollouts, mode, maxSteps, labels, consensus } = settings.settings;
  const label = createRecordLabeller(
    policy,
    { rollouts, mode, maxSteps, labels, details: settings.details, ...(judge ? { judge, ...(consensus ? { consensus } : {}) } : {}) },
    tally,
  );
  return async (input: LabelInput, context: { store?: PrefixValueStore; seed: number }): Promise<string> => {
    const row = await label(input, context);
    return row === null ? '' : `${JSON.stringify(row)}\n`;
  };
}

async function loadJudge(settings: Settings): Promise<{ judge: StepJudge; prm: ProcessRM } | undefined> {
  const { judge, judgeRecipe, judgeThreshold } = settings.settings;
  if (judge === undefined) return undefined;
  const prm = await loadProcessRM({
    ...(judge === 'tiny' ? {} : { model: judge }),
    ...(judgeRecipe ? { recipe: judgeRecipe } : {}),
    backend: judge === 'tiny' ? 'tiny' : 'auto',
    seed: 0,
    ...(settings.policySettings.threads !== undefined ? { threads: settings.policySettings.threads } : {}),
  });
  return { judge: prmJudge(prm, judgeThreshold!), prm };
}

async function* jobsOf(settings: Settings, streams: CliStreams): AsyncGenerator<LabelJob> {
  for await (const item of readJsonRecords(settings.file, streams.stdin, labelUsage)) yield toJob(item, settings.settings.delimiter);
}

/**
 * `--out` names a file to resume or a new one: an existing file without the state journal beside
 * it is someone else's (`train`, `convert` and `export` refuse the same way), replaced only with
 * `--force`.
 */
async function checkLabelOutput(out: string, force: boolean): Promise<void> {
  if ((await labelOutputKind(out)) !== 'other') return;
  if (!force)
    throw new InvalidInputError(`${out} exists and is not a resumable label run (no ${out}.state.jsonl beside it); pass --force to replace it`, {
      location: '--out',
    });
  await rm(out);
}

/** `reward-lens label`: Monte-Carlo step labels in TRL's PRM format, resumable with --out. */
export const labelCommand: Command = {
  name: 'label',
  summary: "Monte-Carlo step labels from a completer policy's rollouts, in TRL's PRM format",
  usage: labelUsage,
  async run(args, streams) {
    const settings = parseLabelSettings(args, streams.stdin.isTTY === true);
    await checkReadable(settings.file);
    if (settings.out !== undefined) await checkLabelOutput(settings.out, settings.force);
    const policy = await loadPolicy(settings.policy, settings.policySettings, labelUsage);
    let judge: Awaited<ReturnType<typeof loadJudge>>;
    try {
      judge = await loadJudge(settings);
      const tally: LabelTally = { completions: 0, fullSweepCompletions: 0, kept: 0, dropped: 0 };
      const label = labeller(policy.policy, judge?.judge, settings, tally);
      const reportError = (job: FailedLabelJob) => writeText(streams.stderr, `reward-lens: ${job.key}: ${job.error.code}: ${job.error.message}\n`);
      const options = { jobs: jobsOf(settings, streams), settings: settings.journalSettings, label, onError: reportError };
      const totals =
        settings.out !== undefined
          ? await labelFile({ ...options, outputPath: settings.out })
          : await labelJobs(options, { write: (_key, _fingerprint, lines) => writeText(streams.stdout, lines) });
      if (!settings.quiet || totals.errors > 0) {
        const resumed = totals.resumed > 0 ? ` (${totals.resumed} done by an earlier run, ${totals.reusedPrefixValues} prefix values reused)` : '';
        const filtered = tally.dropped > 0 ? `; kept ${tally.kept}, dropped ${tally.dropped} (no labels, or no consensus)` : '';
        await writeText(
          streams.stderr,
          `reward-lens: labelled ${totals.labelled} of ${totals.records} records${resumed}, ${totals.errors} error${totals.errors === 1 ? '' : 's'}${filtered}; ${tally.completions} completions rolled out (a full sweep: ${tally.fullSweepCompletions})\n`,
        );
      }
      return totals.errors > 0 ? exitCodes.failure : exitCodes.success;
    } finally {
      await judge?.prm.dispose();
      await policy.dispose();
    }
  },
};
