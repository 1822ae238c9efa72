// Test helpers of @reward-lens/search: deterministic policies whose right answers are known.
export {
  chainPrefixValue,
  chainProblem,
  chainSolution,
  chainStep,
  chainSuccessProbability,
  chainTotal,
  createChainPolicy,
  parseChainProblem,
  type ChainPolicyOptions,
} from './chain-policy.js';
export { createScriptedPolicy, type ScriptedPolicy, type ScriptedPolicyOptions, type ScriptedStep } from '../policy/scripted-policy.js';
export { arithmeticRule, createRuleBackend, createRulePrm, type TextRule } from './rule-prm.js';
