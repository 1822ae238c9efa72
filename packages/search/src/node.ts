// Node-only parts of @reward-lens/search (they read and write files).
export { LabelJournal, type JournalOptions } from './node/label-journal.js';
export { labelFile, recordSeed, type LabelFileOptions, type LabelFileTotals, type LabelJob } from './node/label-file.js';
