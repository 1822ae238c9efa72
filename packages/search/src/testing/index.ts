// Test helpers of @reward-lens/search: deterministic policies whose right answers are known.
export {};
