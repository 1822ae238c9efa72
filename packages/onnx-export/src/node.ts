// Node-only parts of @reward-lens/onnx-export: writing and converting model folders on disk.
export {
  DEFAULT_EXTERNAL_DATA_THRESHOLD_BYTES,
  ONNX_DATA_FILE,
  ONNX_MODEL_FILE,
  ONNX_READ_POSITIONS_FILE,
  ONNX_SUBFOLDER,
  writeOnnxModelFolder,
  type OnnxModelFolderContents,
  type OnnxModelFolderResult,
} from './write-onnx-model-folder.js';
export { exportModelFolder, type ExportModelFolderOptions, type ExportModelFolderResult } from './export-model-folder.js';
export { writeTemporaryOnnxGraph, type TemporaryOnnxGraph } from './temporary-graph.js';
export { exportFolderInWorker, type FolderGraph } from './export-folder-in-worker.js';
