/** Where Debian's `chromium` package puts SwiftShader's Vulkan driver manifest. */
export const swiftShaderIcdPath = '/usr/lib/chromium/vk_swiftshader_icd.json';

/** What to install for a software adapter in Node. */
export const softwareInstallHint =
  `Without a GPU, Node can run WebGPU on SwiftShader: \`apt-get install chromium libvulkan1\` and ` +
  `\`VK_DRIVER_FILES=${swiftShaderIcdPath}\` (or getNodeGpu({ software: true }) with allowSoftwareAdapter: true, ` +
  `or the "webgpu-software" backend).`;

/** What to use in a browser. */
export const browserInstallHint = 'Use a WebGPU-capable browser (Chrome or Edge 113+, Firefox 141+, Safari 26+) on a secure origin (https or localhost).';
