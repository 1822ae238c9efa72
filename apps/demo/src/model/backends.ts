import '@reward-lens/backend-tiny/register';
import '@reward-lens/backend-onnx-web/register';
import '@reward-lens/backend-webgpu/register';
import { BackendResolutionError, type LoadProgress, type ProcessRM } from '@reward-lens/core';
import type { DemoModel } from './demo-model.js';

/** What the page offers: the SDK's `'auto'` resolution, or one backend by name. */
export type BackendChoice = 'auto' | 'webgpu' | 'onnx-web' | 'tiny';

export const backendChoices: readonly { value: BackendChoice; label: string }[] = [
  { value: 'auto', label: 'Best available (WebGPU on a GPU, else onnxruntime-web, else pure TypeScript)' },
  { value: 'webgpu', label: 'WebGPU (WGSL compute shaders)' },
  { value: 'onnx-web', label: 'onnxruntime-web (WebAssembly)' },
  { value: 'tiny', label: 'Pure TypeScript (WebAssembly SIMD kernels)' },
];

export function backendLabel(choice: string): string {
  return backendChoices.find((entry) => entry.value === choice)?.label ?? choice;
}

/** A model loaded on a backend, with what the page reports about it. */
export interface LoadedModel {
  prm: ProcessRM;
  requested: BackendChoice;
  /** The backend that runs it (`BackendV1.name`). */
  backend: string;
  /** Which backend ran and why each one before it was skipped (the SDK's resolution notes). */
  notes: readonly string[];
  /** Set when the requested backend could not run here and `'auto'` chose another: why. */
  fallback?: string;
  loadMs: number;
}

/**
 * Loads `model` on the requested backend. A backend that cannot run here (no WebGPU adapter, a
 * source kind it does not run) falls back to `'auto'`, and the result says so and why.
 */
export async function loadOnBackend(model: DemoModel, requested: BackendChoice, onProgress?: (progress: LoadProgress) => void): Promise<LoadedModel> {
  const started = performance.now();
  try {
    const prm = await model.load(requested, onProgress);
    return { prm, requested, backend: prm.source.name, notes: prm.notes, loadMs: performance.now() - started };
  } catch (error) {
    if (requested === 'auto' || !BackendResolutionError.isInstance(error)) throw error;
    const reasons = error.skipped.map((skipped) => skipped.reason).join('; ');
    const prm = await model.load('auto', onProgress);
    return {
      prm,
      requested,
      backend: prm.source.name,
      notes: prm.notes,
      fallback: `${backendLabel(requested)} cannot run here (${reasons}), so the best available backend ran instead: ${prm.source.name}.`,
      loadMs: performance.now() - started,
    };
  }
}
