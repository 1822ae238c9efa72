import type { BackendV1, ForwardRequestV1 } from '@reward-lens/spec';
import { benchDecoderConfig, formatRatio, sideBySide } from '@reward-lens/bench-harness';

const batchSize = 8;
const sequenceLength = 512;

function request(): ForwardRequestV1 {
  const cells = batchSize * sequenceLength;
  const positions = Array.from({ length: batchSize }, () => Array.from({ length: sequenceLength }, (_, index) => index));
  return {
    batchSize,
    sequenceLength,
    inputIds: Int32Array.from({ length: cells }, (_, index) => (index * 7919) % benchDecoderConfig.vocabSize),
    attentionMask: new Uint8Array(cells).fill(1),
    reads: [{ kind: 'head', head: 'value', positions }],
  };
}

/** (a) One forward of 8 × 512 tokens, value head at every position, on both backends. */
export async function forwardThroughput(tiny: BackendV1, onnx: BackendV1): Promise<void> {
  const batch = request();
  const tokens = batchSize * sequenceLength;
  const {
    a: tinySeconds,
    b: onnxSeconds,
    ratio,
  } = await sideBySide(
    3,
    () => tiny.doForward(batch),
    () => onnx.doForward(batch),
  );
  console.log(`\n(a) forward, batch ${batchSize} × ${sequenceLength} tokens, value head at every position (medians of 3 alternated pairs)`);
  console.log(`  backend-tiny       ${tinySeconds.toFixed(3)} s  ${(tokens / tinySeconds).toFixed(0).padStart(7)} tokens/s  (${tiny.info.description})`);
  console.log(`  backend-onnx-node  ${onnxSeconds.toFixed(3)} s  ${(tokens / onnxSeconds).toFixed(0).padStart(7)} tokens/s  (1 intra-op thread)`);
  console.log(`  ratio tiny/onnx (time; onnx-node is this much faster): ${formatRatio(ratio)}`);
}
