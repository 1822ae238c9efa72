// Node-only parts of @reward-lens/search (they read and write files).
export {};
