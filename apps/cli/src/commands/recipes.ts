import { recipePresets } from '@reward-lens/core';
import type { Command } from '../command.js';
import { parseCommandLine } from '../parse-command-line.js';
import { summarizeRecipe, type RecipeSummary } from '../recipes/summarize-recipe.js';
import { exitCodes } from '../report-error.js';
import { outputWidth, wrap } from '../text-layout.js';
import { writeText } from '../write-text.js';
import { booleanOptions, helpOption } from '../option-table.js';

const recipesUsage = `Usage:
  reward-lens recipes [--json]

Lists the reading recipes: how each PRM family is laid out as text, where each step's score is
read, which head gives it and how it becomes a score. Pass one to score with --recipe <name>;
a model folder whose config.json names a classifier architecture gets its recipe inferred.

Options:
  --json              one JSON object per recipe and line: the summary shown here, and the recipe
                      itself (the data reward-lens reads it with)
  -h, --help          show this help
`;

const recipesOptions = {
  ...booleanOptions('json'),
  ...helpOption,
} as const;

function formatRecipeText(summary: RecipeSummary, width: number): string {
  const rows: [string, string][] = [
    ['layout', summary.layout],
    ['split at', summary.splitAt],
    ['step tag', summary.stepTag],
    ['read at', summary.readAt],
    ['head', summary.head],
    ['activation', `${summary.activation} (gauge ${summary.gauge})`],
  ];
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const indent = ' '.repeat(2 + labelWidth + 2);
  const lines = [summary.name, ...wrap(`  ${summary.description}`, width, '  ')];
  for (const [label, value] of rows) lines.push(...wrap(`  ${label.padEnd(labelWidth)}  ${value}`, width, indent, { breakLongWords: true }));
  return `${lines.join('\n')}\n`;
}

/** `reward-lens recipes`: the built-in reading recipes, in words. */
export const recipesCommand: Command = {
  name: 'recipes',
  summary: 'list the reading recipes (how each PRM family is laid out and read)',
  usage: recipesUsage,
  async run(args, streams) {
    const { values } = parseCommandLine(args, recipesOptions, recipesUsage);
    const recipes = Object.values(recipePresets);
    const text =
      values.json === true
        ? recipes.map((recipe) => `${JSON.stringify({ ...summarizeRecipe(recipe), recipe })}\n`).join('')
        : recipes.map((recipe) => formatRecipeText(summarizeRecipe(recipe), outputWidth(streams.stdout))).join('\n');
    await writeText(streams.stdout, text);
    return exitCodes.success;
  },
};
