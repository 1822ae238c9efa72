import { InvalidInputError, type DecoderModel, type QuantizedFormatV1 } from '@reward-lens/spec';
import { heldFormat, quantizationPlan, type PlannedQuantization } from '@reward-lens/spec/internal';

/** The weight dtypes backend-tiny holds a model in. */
export type TinyDtype = 'fp32' | QuantizedFormatV1;

export const tinyDtypes: readonly TinyDtype[] = ['fp32', 'bf16', 'fp16', 'q8', 'q4'];

/** What the backend quantizes of the float32 tensors it is given, and what it holds, in words for the notes. */
export interface QuantizationChoice {
  /** Float32 tensors to quantize as they are placed (none under fp32). */
  plan: ReadonlyMap<string, PlannedQuantization>;
  /** How the weights end up held: the dtype asked for, or that of tensors given already quantized. */
  dtype: TinyDtype;
  /** Sentences for the backend's notes (none for fp32). */
  notes: string[];
}

const described: Record<QuantizedFormatV1, string> = {
  q8: 'q8 (8-bit integers, one float scale per output channel), quantized at load',
  q4: 'q4 (4-bit integers, one float scale per block of 32 weights), quantized at load',
  bf16: 'bf16 (16-bit brain floats, each weight rounded to the nearest)',
  fp16: 'fp16 (IEEE half floats, each weight rounded to the nearest)',
};

/**
 * The model's float32 tensors that `dtype` quantizes (spec's `quantizationPlan`: the
 * projections, and the embedding table unless a head reads it), leaving out any the model holds
 * quantized already (a loader quantized them as it read). Without a dtype, a model given
 * quantized tensors is held as they are.
 */
export function chooseQuantization(model: DecoderModel, asked: TinyDtype | undefined): QuantizationChoice {
  const given = model.quantized ?? new Map();
  const givenFormat = heldFormat(model);
  if (asked === 'fp32' && givenFormat !== undefined) {
    throw new InvalidInputError(
      `dtype 'fp32' was asked for, but the model holds ${given.size} tensors quantized (${givenFormat}): load it with dtype 'fp32' to have float32 weights`,
    );
  }
  const dtype: TinyDtype = asked ?? givenFormat ?? 'fp32';
  const planned = quantizationPlan(model.config, dtype);
  const plan = new Map([...planned.tensors].filter(([name]) => !given.has(name)));
  if (dtype === 'fp32') return { plan, dtype, notes: [] };
  const notes = [
    `backend "tiny" holds the projection weights${planned.embedding ? ' and the embedding table' : ''} as ${described[dtype]}; norms and heads stay float32, and scores differ from the fp32 model's`,
  ];
  const fellBack = planned.fellBackToQ8;
  if (fellBack.length > 0) {
    notes.push(
      `backend "tiny" holds ${fellBack.length} matrices as q8, not q4: their rows are not whole blocks of 32 weights (${fellBack.slice(0, 3).join(', ')}${fellBack.length > 3 ? ', ...' : ''})`,
    );
  }
  return { plan, dtype, notes };
}
