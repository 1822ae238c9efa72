import type { LoadedModel } from '../model/backends.js';
import { element, replaceChildren } from './element.js';

function milliseconds(value: number): string {
  return value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

/**
 * Which backend ran (`data-backend`), how long loading and scoring took, a fallback when one was
 * taken, and the SDK's notes (which backend ran, why the others were skipped).
 */
export function renderRunInfo(
  container: HTMLElement,
  loaded: LoadedModel,
  timings: { stepsMs: number; outcomeMs: number } | undefined,
  notes: readonly string[],
): void {
  const timing = [
    `loaded in ${milliseconds(loaded.loadMs)}`,
    timings ? `steps scored in ${milliseconds(timings.stepsMs)}, outcome in ${milliseconds(timings.outcomeMs)}` : null,
  ].filter(Boolean);
  replaceChildren(
    container,
    element(
      'p',
      { class: 'backend-line' },
      'Ran on ',
      element('strong', { 'data-backend': loaded.backend, id: 'backend-name' }, loaded.backend),
      ` (${loaded.prm.source.description}); ${timing.join('; ')}.`,
    ),
    loaded.fallback ? element('p', { class: 'fallback', role: 'alert', 'data-fallback': loaded.requested }, loaded.fallback) : null,
    element('p', { class: 'notes-heading' }, 'Why this backend (the SDK’s notes):'),
    element('ul', { class: 'notes' }, ...notes.map((note) => element('li', {}, note))),
  );
}
