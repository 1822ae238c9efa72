import { applyOperation, type Operation } from './operations.js';
import type { ErrorKind } from './options.js';
import type { Random } from './random.js';
import {
  nearMisses,
  operationCount,
  type SolutionContext,
  tailFeasible,
  type WriterState,
  type WrittenStep,
  writeAnswer,
  writeCorrect,
  writeSkip,
  writeUnneeded,
  writeWrongCopy,
  writeWrongOperation,
  writeWrongResult,
} from './solution-writer.js';

/** A solution being written: its steps so far and where it stands. */
class Draft {
  readonly steps: WrittenStep[] = [];
  state: WriterState;

  constructor(readonly context: SolutionContext) {
    this.state = { position: 0, value: context.structure.start.value };
  }

  /** Correct steps up to operation `until` (exclusive); false when one cannot be written exactly. */
  correctUntil(until: number): boolean {
    while (this.state.position < until) {
      const written = writeCorrect(this.context, this.state);
      if (written === null) return false;
      this.push(written);
    }
    return true;
  }

  push(written: { step: WrittenStep; state: WriterState }): void {
    this.steps.push(written.step);
    this.state = written.state;
  }

  /** Correct steps to the end and the answer. */
  finish(): WrittenStep[] | null {
    if (!this.correctUntil(operationCount(this.context))) return null;
    this.steps.push(writeAnswer(this.context, this.state));
    return this.steps;
  }
}

/** The correct solution. */
export function writeCleanSolution(context: SolutionContext): WrittenStep[] {
  const steps = new Draft(context).finish();
  if (steps === null) throw new Error('a generated chain must be exact');
  return steps;
}

/** The 0-based steps where an error of this kind can be placed (before the answer step moves, for kinds that add or drop steps). */
export function injectionPositions(context: SolutionContext, kind: ErrorKind): number[] {
  const count = operationCount(context);
  const upTo = (last: number) => Array.from({ length: last + 1 }, (_, index) => index);
  switch (kind) {
    case 'wrong-copy':
    case 'unneeded-step':
      return upTo(count);
    case 'dropped-step':
      return upTo(count - 1).filter((position) => {
        const [here, next] = [context.structure.operations[position]!, context.structure.operations[position + 1]];
        return next === undefined || next.operand !== here.operand;
      });
    default:
      return upTo(count - 1);
  }
}

/**
 * The solution with one error of `kind` at step `position` (for `compensating`, the first of its
 * two), written so that the verifier reads exactly that error there, and every other step as
 * correct on the solution's own quantities; null when this problem cannot take it there.
 */
export function injectError(context: SolutionContext, kind: ErrorKind, position: number, random: Random, allowed: readonly Operation[]): WrittenStep[] | null {
  const draft = new Draft(context);
  if (!draft.correctUntil(position)) return null;
  const { structure, truth } = context;
  const count = operationCount(context);
  const state = draft.state;
  const later = new Set(structure.operations.slice(position + 1).map((operation) => operation.operand));
  const distractors = new Set(structure.distractors.map((distractor) => distractor.value));
  const inRange = (value: number) => value >= 1 && value <= context.ceiling;

  switch (kind) {
    case 'wrong-result': {
      const correct = truthAfter(context, state);
      const result = pickFirst(random, nearMisses(correct), (value) => inRange(value) && tailFeasible(context, position + 1, value));
      if (result === undefined) return null;
      draft.push(writeWrongResult(context, state, result));
      return draft.finish();
    }
    case 'wrong-copy': {
      if (position === count) {
        const stated = pickFirst(random, nearMisses(state.value), inRange);
        if (stated === undefined) return null;
        return [...draft.steps, writeAnswer(context, state, stated)];
      }
      const operation = structure.operations[position]!;
      for (const side of random.shuffled(['left', 'right'] as const)) {
        const original = side === 'left' ? state.value : operation.operand;
        const earlier = [structure.start.value, ...structure.operations.slice(0, position).map((each) => each.operand), ...truth.slice(1, position)];
        const candidates = [...nearMisses(original), ...earlier].filter(
          (value) =>
            value !== original &&
            inRange(value) &&
            !later.has(value) &&
            !distractors.has(value) &&
            // a misread right operand equal to the running quantity would read as that operand moved
            (side === 'left' || value !== state.value) &&
            (side === 'left' || operation.operation === '+' || operation.operation === '−' || value >= 2),
        );
        const written = pickWritten(random, candidates, (value) => writeWrongCopy(context, state, side, value), context, position);
        if (written !== undefined) {
          draft.push(written);
          return draft.finish();
        }
      }
      return null;
    }
    case 'wrong-operation': {
      const operation = structure.operations[position]!;
      const symbols = allowed.filter((symbol) => symbol !== operation.operation);
      const written = pickWritten(random, symbols, (symbol) => writeWrongOperation(context, state, symbol), context, position);
      if (written === undefined) return null;
      draft.push(written);
      return draft.finish();
    }
    case 'dropped-step': {
      const written = writeSkip(context, state);
      if (written === null) return null;
      // Leaving out the last operation: the skipping step is the answer itself.
      if (state.position === count - 1) return [...draft.steps, written.step];
      if (!inRange(written.state.value) || written.state.value === truth[written.state.position]) return null;
      if (!tailFeasible(context, written.state.position, written.state.value)) return null;
      draft.push(written);
      return draft.finish();
    }
    case 'compensating': {
      const repair = random.integer(position + 1, count);
      const correct = truthAfter(context, state);
      const result = pickFirst(random, nearMisses(correct), (value) => inRange(value) && tailFeasible(context, position + 1, value, repair));
      if (result === undefined) return null;
      draft.push(writeWrongResult(context, state, result));
      if (!draft.correctUntil(repair)) return null;
      if (repair === count) return [...draft.steps, { ...writeAnswer(context, draft.state, truth[count]!) }];
      draft.push(writeWrongResult(context, draft.state, truth[repair + 1]!));
      return draft.finish();
    }
    case 'unneeded-step': {
      const usable = structure.distractors.map((distractor) => distractor.value).filter((value) => value !== state.value);
      const pairs = usable.flatMap((value) => allowed.map((symbol) => ({ value, symbol })));
      const candidates = random.shuffled(pairs);
      for (const { value, symbol } of candidates) {
        const written = writeUnneeded(context, state, value, symbol);
        const result = applyOperation(symbol, state.value, value);
        if (written !== null && result !== null && inRange(result)) {
          draft.push(written);
          return draft.finish();
        }
      }
      return null;
    }
  }
}

/** The true quantity after the next operation, which a wrong result must differ from. */
function truthAfter(context: SolutionContext, state: WriterState): number {
  return context.truth[state.position + 1]!;
}

function pickFirst<T>(random: Random, candidates: readonly T[], accept: (candidate: T) => boolean): T | undefined {
  return random.shuffled(candidates).find(accept);
}

/** A step written from one of the candidates whose quantity is new, in range, and leaves the rest writable. */
function pickWritten<T>(
  random: Random,
  candidates: readonly T[],
  write: (candidate: T) => { step: WrittenStep; state: WriterState } | null,
  context: SolutionContext,
  position: number,
): { step: WrittenStep; state: WriterState } | undefined {
  for (const candidate of random.shuffled([...new Set(candidates)])) {
    const written = write(candidate);
    if (written === null) continue;
    const value = written.state.value;
    if (value < 1 || value > context.ceiling || value === context.truth[position + 1]) continue;
    if (tailFeasible(context, position + 1, value)) return written;
  }
  return undefined;
}
