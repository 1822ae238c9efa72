import { recipePresets } from '@reward-lens/core';
import type { DemoExample } from './examples/demo-example.js';
import { organismCandidates, organismExamples, verifyCandidate } from './examples/organism-examples.js';
import { loadProcessBenchExamples } from './examples/processbench-examples.js';
import { backendChoices, loadOnBackend, type BackendChoice, type LoadedModel } from './model/backends.js';
import { defaultModel } from './model/default-model.js';
import type { DemoModel } from './model/demo-model.js';
import { folderModel, pickedFolder } from './model/folder-model.js';
import { compareCandidates, splitCandidates } from './scoring/compare-candidates.js';
import { aggregateNames, scoreSolution, type AggregateName } from './scoring/score-solution.js';
import { renderComparison } from './ui/compare-view.js';
import { element, replaceChildren } from './ui/element.js';
import { renderResults } from './ui/results-view.js';
import { renderRunInfo } from './ui/run-info-view.js';

function byId<Type extends HTMLElement>(id: string): Type {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found as Type;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The page: pick or paste a solution, score it on a backend, compare candidates, open a model
 * folder. One action runs at a time (later clicks wait their turn); `body[data-status]` and the
 * counters `data-runs` / `data-compare-runs` say when a result is on the page.
 */
export class DemoApp {
  private model: DemoModel = defaultModel;
  private readonly loaded = new Map<BackendChoice, Promise<LoadedModel>>();
  private examples: DemoExample[] = organismExamples();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly page = {
    example: byId<HTMLSelectElement>('example'),
    exampleNote: byId('example-note'),
    problem: byId<HTMLTextAreaElement>('problem'),
    solution: byId<HTMLTextAreaElement>('solution'),
    backend: byId<HTMLSelectElement>('backend'),
    score: byId<HTMLButtonElement>('score'),
    status: byId('status'),
    runInfo: byId('run-info'),
    results: byId('results-body'),
    folder: byId<HTMLInputElement>('folder'),
    recipe: byId<HTMLSelectElement>('recipe'),
    useDefault: byId<HTMLButtonElement>('use-default'),
    modelName: byId('model-name'),
    modelCaveat: byId('model-caveat'),
    compareProblem: byId<HTMLTextAreaElement>('compare-problem'),
    compareCandidates: byId<HTMLTextAreaElement>('compare-candidates'),
    compareAggregate: byId<HTMLSelectElement>('compare-aggregate'),
    compareButton: byId<HTMLButtonElement>('compare-run'),
    compareResults: byId('compare-results'),
    attribution: byId('attribution'),
  };

  async start(): Promise<void> {
    const { page } = this;
    replaceChildren(page.backend, ...backendChoices.map((choice) => element('option', { value: choice.value }, choice.label)));
    replaceChildren(
      page.recipe,
      element('option', { value: '' }, 'Inferred from config.json'),
      ...Object.keys(recipePresets).map((name) => element('option', { value: name }, name)),
    );
    replaceChildren(page.compareAggregate, ...aggregateNames.map((name) => element('option', { value: name }, name)));
    const candidates = organismCandidates();
    page.compareProblem.value = candidates.problem;
    page.compareCandidates.value = candidates.candidates.join('\n---\n');
    this.showModel();

    page.example.addEventListener('change', () => this.pickExample(page.example.value));
    page.backend.addEventListener('change', () => void this.score());
    page.score.addEventListener('click', () => void this.score());
    for (const field of [page.problem, page.solution]) {
      field.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void this.score();
      });
    }
    page.compareButton.addEventListener('click', () => void this.compare());
    page.folder.addEventListener('change', () => void this.openFolder());
    page.useDefault.addEventListener('click', () => void this.useModel(defaultModel));

    const processBench = await loadProcessBenchExamples().catch((error: unknown) => ({ examples: [], attribution: '', unavailable: messageOf(error) }));
    this.examples = [...this.examples, ...processBench.examples];
    this.renderExamplePicker(processBench.unavailable);
    page.attribution.textContent = processBench.attribution
      ? `ProcessBench examples: ${processBench.attribution}. Organism examples: @reward-lens/organism, seed 0.`
      : `Organism examples: @reward-lens/organism, seed 0. ${processBench.unavailable ?? ''}`;
    this.pickExample(this.examples[0]!.id);
  }

  private renderExamplePicker(processBenchUnavailable: string | undefined): void {
    const group = (label: string, name: DemoExample['group']) =>
      element(
        'optgroup',
        { label },
        ...this.examples.filter((example) => example.group === name).map((example) => element('option', { value: example.id }, example.title)),
      );
    replaceChildren(
      this.page.example,
      group('Organism problems (generated, errors known)', 'organism'),
      group('ProcessBench GSM8K (human-labelled first error)', 'processbench'),
      processBenchUnavailable ? element('option', { disabled: true, value: '' }, `ProcessBench examples unavailable: ${processBenchUnavailable}`) : null,
    );
  }

  private pickExample(id: string): void {
    const example = this.examples.find((candidate) => candidate.id === id);
    if (!example) return;
    this.page.example.value = id;
    this.page.problem.value = example.problem;
    this.page.solution.value = example.solution;
    this.page.exampleNote.textContent = example.labelNote;
    void this.score();
  }

  /** The example the text boxes still hold unchanged, whose labels apply. */
  private currentExample(): DemoExample | undefined {
    const example = this.examples.find((candidate) => candidate.id === this.page.example.value);
    return example && example.problem === this.page.problem.value && example.solution === this.page.solution.value ? example : undefined;
  }

  private loadModel(choice: BackendChoice): Promise<LoadedModel> {
    let loading = this.loaded.get(choice);
    if (!loading) {
      // While the weights are read, the status line says how far (`Reading model.safetensors: 45%`).
      loading = loadOnBackend(this.model, choice, ({ file, loaded, total }) => {
        this.page.status.textContent = `Reading ${file.split('/').at(-1)}: ${total > 0 ? Math.floor((100 * loaded) / total) : 100}%`;
      });
      // A failed load is not kept: the next action tries again.
      loading.catch(() => this.loaded.delete(choice));
      this.loaded.set(choice, loading);
    }
    return loading;
  }

  /** Runs one action after the previous one, with the page's status around it. */
  private run(label: string, action: () => Promise<void>, counter: 'runs' | 'compareRuns'): Promise<void> {
    const next = this.queue.then(async () => {
      document.body.dataset.status = 'busy';
      this.page.status.className = 'status';
      this.page.status.textContent = `${label}…`;
      try {
        await action();
        document.body.dataset.status = 'ready';
      } catch (error) {
        document.body.dataset.status = 'error';
        this.page.status.className = 'status error';
        this.page.status.textContent = messageOf(error);
        console.error(error);
      } finally {
        document.body.dataset[counter] = String(Number(document.body.dataset[counter] ?? 0) + 1);
      }
    });
    this.queue = next;
    return next;
  }

  private score(): Promise<void> {
    const choice = this.page.backend.value as BackendChoice;
    return this.run(
      'Loading the model and scoring every step',
      async () => {
        const loaded = await this.loadModel(choice);
        const scored = await scoreSolution(loaded.prm, this.page.problem.value, this.page.solution.value);
        renderRunInfo(this.page.runInfo, loaded, scored, scored.notes);
        renderResults(this.page.results, scored, this.currentExample());
        const lowest = scored.steps[scored.lowest]!;
        this.page.status.textContent = `Scored ${scored.steps.length} steps on ${loaded.backend}; the lowest is step ${lowest.index + 1}.`;
      },
      'runs',
    );
  }

  private compare(): Promise<void> {
    const choice = this.page.backend.value as BackendChoice;
    const how = this.page.compareAggregate.value as AggregateName;
    return this.run(
      'Scoring and ranking the candidates',
      async () => {
        const problem = this.page.compareProblem.value;
        const candidates = splitCandidates(this.page.compareCandidates.value);
        if (candidates.length === 0) throw new Error('Give at least one candidate solution (separate candidates with a line holding only ---).');
        const loaded = await this.loadModel(choice);
        const comparison = await compareCandidates(loaded.prm, problem, candidates, how);
        renderComparison(
          this.page.compareResults,
          comparison,
          candidates.map((candidate) => verifyCandidate(problem, candidate)),
          how,
        );
        this.page.status.textContent = `Ranked ${candidates.length} candidates on ${loaded.backend}.`;
      },
      'compareRuns',
    );
  }

  private async openFolder(): Promise<void> {
    const files = [...(this.page.folder.files ?? [])];
    if (files.length === 0) return;
    await this.useModel(folderModel(pickedFolder(files), this.page.recipe.value || undefined));
  }

  private async useModel(model: DemoModel): Promise<void> {
    const previous = [...this.loaded.values()];
    this.loaded.clear();
    this.model = model;
    this.showModel();
    // The old model's backends hold memory (GPU buffers, wasm sessions): released once nothing uses them.
    void this.queue.then(async () => {
      for (const loading of previous) await loading.then((loaded) => loaded.prm.backend.dispose()).catch(() => undefined);
    });
    await this.score();
  }

  private showModel(): void {
    this.page.modelName.textContent = this.model.name;
    this.page.modelCaveat.textContent = this.model.caveat;
    this.page.useDefault.hidden = this.model === defaultModel;
  }
}
