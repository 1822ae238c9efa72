// Where the built app serves the files its build writes, relative to its base: written by a build plugin, read by the page.

/** The ProcessBench GSM8K items the build extracts from the shared split. */
export const processBenchAsset = 'examples/processbench-gsm8k.json';
