import { InvalidInputError } from '@reward-lens/core';

export interface AdamWOptions {
  /** Default 0.9. */
  beta1?: number;
  /** Default 0.95. */
  beta2?: number;
  /** Default 1e-8. */
  epsilon?: number;
  /** Decoupled weight decay (Loshchilov & Hutter). Default 0.01. */
  weightDecay?: number;
  /** Which tensors decay; default all but norms and biases (as most LLM recipes do). */
  decays?: (name: string) => boolean;
}

/** The moments of every tensor and the step count: what a checkpoint keeps of the optimizer. */
export interface AdamWState {
  step: number;
  firstMoments: Map<string, Float32Array>;
  secondMoments: Map<string, Float32Array>;
}

const defaultDecays = (name: string) => !name.endsWith('.bias') && !name.endsWith('norm.weight');

/**
 * AdamW over a model's tensors, updated in place: `p ← p·(1 - lr·λ) - lr·m̂/(√v̂ + ε)`,
 * moments kept in float32, each update computed in float64 and rounded once.
 */
export class AdamW {
  readonly #parameters: ReadonlyMap<string, Float32Array>;
  readonly #beta1: number;
  readonly #beta2: number;
  readonly #epsilon: number;
  readonly #weightDecay: number;
  readonly #decays: (name: string) => boolean;
  #state: AdamWState;

  constructor(parameters: ReadonlyMap<string, Float32Array>, options: AdamWOptions = {}) {
    this.#parameters = parameters;
    this.#beta1 = options.beta1 ?? 0.9;
    this.#beta2 = options.beta2 ?? 0.95;
    this.#epsilon = options.epsilon ?? 1e-8;
    this.#weightDecay = options.weightDecay ?? 0.01;
    this.#decays = options.decays ?? defaultDecays;
    const zeros = () => new Map([...parameters].map(([name, tensor]) => [name, new Float32Array(tensor.length)]));
    this.#state = { step: 0, firstMoments: zeros(), secondMoments: zeros() };
  }

  get state(): AdamWState {
    return this.#state;
  }

  /** Continues from a saved state (same tensors, same sizes). */
  load(state: AdamWState): void {
    for (const [name, tensor] of this.#parameters) {
      const first = state.firstMoments.get(name);
      const second = state.secondMoments.get(name);
      if (!first || !second || first.length !== tensor.length || second.length !== tensor.length) {
        throw new InvalidInputError(`the optimizer state has no moments of the right size for "${name}"`);
      }
    }
    this.#state = state;
  }

  /** One update with `gradients` (by tensor name; a tensor without one is left alone) at `learningRate`. */
  step(gradients: ReadonlyMap<string, Float32Array>, learningRate: number): void {
    const state = this.#state;
    state.step++;
    const beta1 = this.#beta1;
    const beta2 = this.#beta2;
    const epsilon = this.#epsilon;
    const stepSize = learningRate / (1 - beta1 ** state.step);
    const inverseCorrection2 = 1 / (1 - beta2 ** state.step);
    for (const [name, parameter] of this.#parameters) {
      const gradient = gradients.get(name);
      if (!gradient) continue;
      const first = state.firstMoments.get(name)!;
      const second = state.secondMoments.get(name)!;
      const shrink = 1 - learningRate * (this.#decays(name) ? this.#weightDecay : 0);
      const length = parameter.length;
      for (let index = 0; index < length; index++) {
        const g = gradient[index]!;
        const m = beta1 * first[index]! + (1 - beta1) * g;
        const v = beta2 * second[index]! + (1 - beta2) * g * g;
        first[index] = m;
        second[index] = v;
        parameter[index] = parameter[index]! * shrink - (stepSize * m) / (Math.sqrt(v * inverseCorrection2) + epsilon);
      }
    }
  }
}

/** Scales the gradients in place so that their global L2 norm is at most `maxNorm`; returns the norm before. */
export function clipGradientNorm(gradients: ReadonlyMap<string, Float32Array>, maxNorm: number): number {
  let squares = 0;
  for (const gradient of gradients.values()) {
    const length = gradient.length;
    for (let index = 0; index < length; index++) {
      const value = gradient[index]!;
      squares += value * value;
    }
  }
  const norm = Math.sqrt(squares);
  if (Number.isFinite(maxNorm) && norm > maxNorm) {
    const scale = maxNorm / norm;
    for (const gradient of gradients.values()) for (let index = 0; index < gradient.length; index++) gradient[index] = gradient[index]! * scale;
  }
  return norm;
}
