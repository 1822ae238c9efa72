// Node-only parts of @reward-lens/search (they read and write files).
export { LabelJournal, type JournalOptions } from './node/label-journal.js';
export { labelOutputKind } from './node/label-output.js';
export { labelFile, type LabelFileOptions, type LabelFileTotals } from './node/label-file.js';
// Also on the main entry; here too, beside `labelFile`, as before.
export { recordSeed, type LabelJob } from './labels/label-jobs.js';
// Loading a policy by name, URL, script file or model folder (`reward-lens search --policy`).
export { loadPolicy } from './policy/load-policy.js';
export { namedPolicies, type NamedPolicy } from './policy/named-policies.js';
export { parseOrganismPolicyOptions } from './policy/organism-policy-options.js';
export { parsePolicySpec, type PolicySpec } from './policy/policy-spec.js';
export { readScript } from './policy/read-script.js';
