import { capabilityNamesOf, registeredBackends, type ProcessRM } from '@reward-lens/core';
import type { Command } from '../command.js';
import { loadProcessRM } from '../load-process-rm.js';
import { modelOptions, modelOptionsHelp, parseModelChoice } from '../model-options.js';
import { parseCommandLine } from '../parse-command-line.js';
import { exitCodes } from '../report-error.js';
import { outputWidth, wrap } from '../text-layout.js';
import { writeText } from '../write-text.js';
import { booleanOptions, helpOption } from '../option-table.js';

const capsUsage = `Usage:
  reward-lens caps [--model <folder>] [--recipe <name>] [--backend <name>] [--seed <n>] [--json]

Shows what a backend can do with the model: its capability flags (what ProcessRM methods it
supports), precision, model, heads and KV cache support, the reading recipe, which backends are
registered, and the notes of the load (which backend ran, why others were skipped).

Options:
${modelOptionsHelp}
  --json                    one JSON object instead of the readable list
  -h, --help                show this help
`;

const capsOptions = {
  ...modelOptions,
  ...booleanOptions('json'),
  ...helpOption,
} as const;

function capsReport(prm: ProcessRM) {
  const { backend } = prm;
  return {
    capabilities: prm.capsString,
    capabilityNames: capabilityNamesOf(prm.caps),
    backend: backend.name,
    precision: backend.precision,
    model: {
      description: backend.info.description,
      vocabSize: backend.info.vocabSize,
      hiddenSize: backend.info.hiddenSize,
      numLayers: backend.info.numLayers,
      maxPositions: backend.info.maxPositions,
    },
    heads: backend.info.heads.map((head) => ({ name: head.name, kind: head.kind, width: head.width })),
    supportsCache: backend.supportsCache,
    recipe: { name: prm.recipe.name, description: prm.recipe.description },
    notes: [...prm.notes],
    registeredBackends: registeredBackends().map((registration) => ({
      name: registration.name,
      priority: registration.priority,
      explicitOnly: registration.explicitOnly === true,
    })),
  };
}

function formatCapsText(report: ReturnType<typeof capsReport>, width: number): string {
  const rows: [string, string][] = [
    ['capabilities', report.capabilities],
    ['backend', report.backend],
    ['precision', report.precision],
    ['model', `${report.model.description}; vocabulary ${report.model.vocabSize}, up to ${report.model.maxPositions} positions`],
    ['heads', report.heads.map((head) => `${head.name} (${head.kind}, width ${head.width})`).join(', ')],
    ['kv cache', report.supportsCache ? 'supported' : 'not supported'],
    ['recipe', `${report.recipe.name}: ${report.recipe.description}`],
    [
      'registered',
      report.registeredBackends.map((entry) => `${entry.name} (priority ${entry.priority}${entry.explicitOnly ? ', by name only' : ''})`).join(', '),
    ],
    ...report.notes.map((note): [string, string] => ['note', note]),
  ];
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const indent = ' '.repeat(labelWidth + 2);
  return `${rows.map(([label, value]) => wrap(`${label.padEnd(labelWidth)}  ${value}`, width, indent).join('\n')).join('\n')}\n`;
}

/** `reward-lens caps`: the capability string and the facts about a backend a user needs to pick one. */
export const capsCommand: Command = {
  name: 'caps',
  summary: "show a backend's capabilities, precision, model, heads and the registered backends",
  usage: capsUsage,
  async run(args, streams) {
    const { values } = parseCommandLine(args, capsOptions, capsUsage);
    const prm = await loadProcessRM(parseModelChoice(values, capsUsage));
    try {
      const report = capsReport(prm);
      await writeText(streams.stdout, values.json === true ? `${JSON.stringify(report)}\n` : formatCapsText(report, outputWidth(streams.stdout)));
      return exitCodes.success;
    } finally {
      await prm.dispose();
    }
  },
};
