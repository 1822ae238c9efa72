// The first-party backends the CLI can run, registered by their side-effect entries. The CLI
// imports them itself rather than leaning on core's lazy import of backend-tiny: the bundled CLI
// then always finds them, and the dependencies are visible here. `--backend auto` tries them
// highest priority first: onnx-node (20), then tiny (10).
//
// Every module that resolves a backend imports this file, never one backend's register entry.
// Still to come here: '@reward-lens/backend-webgpu/register' and '@reward-lens/backend-onnx-web/register'.
import '@reward-lens/backend-tiny/register';
import '@reward-lens/backend-onnx-node/register';

