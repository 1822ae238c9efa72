const core = require('@reward-lens/core');
const internal = require('@reward-lens/spec');
require('@reward-lens/backend-tiny/register');
require('@reward-lens/backend-webgpu/register');
const tiny = require('@reward-lens/backend-tiny');
const webgpu = require('@reward-lens/backend-webgpu');
const registered = (name) => core.registeredBackends().find((registration) => registration.name === name);
console.log(
  JSON.stringify({
    errorClassAcrossEntries: core.ModelLoadError === internal.ModelLoadError,
    tinyRegisteredIsExported: registered('tiny') === tiny.tinyBackendRegistration,
    webgpuRegisteredIsExported: registered('webgpu') === webgpu.webGpuBackendRegistration,
  }),
);
