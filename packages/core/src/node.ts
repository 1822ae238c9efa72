// Node-only parts of @reward-lens/core (they read and write files with node:fs).
export { loadDecoderFolder, writeDecoderFolder, type DecoderFolder, type DecoderFolderContents } from './loading/model-folder.js';
export { modelFilesFromFolder } from './loading/node-model-files.js';
export { openSafetensorsFile, type SafetensorsFile } from './loading/safetensors-file.js';
export { findOnnxGraph } from './loading/onnx-graph-file.js';
export { readModelJsonFile, requireRegularFile } from './loading/node-model-file.js';
