// The first-party backends the CLI can run, registered by their side-effect entries. The CLI
// imports them itself rather than leaning on core's lazy import of backend-tiny: the bundled CLI
// then always finds them, and the dependencies are visible here. `--backend auto` tries them
// highest priority first: webgpu (30, only on a hardware adapter), onnx-node (20), onnx-web (15),
// then tiny (10).
// `webgpu` named explicitly also runs on a software adapter (SwiftShader).
//
// Every module that resolves a backend imports this file, never one backend's register entry.
import '@reward-lens/backend-tiny/register';
import '@reward-lens/backend-onnx-node/register';
import '@reward-lens/backend-webgpu/register';
import '@reward-lens/backend-onnx-web/register';
