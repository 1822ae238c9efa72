export { builtInAggregators, type Aggregator, type BuiltInAggregatorName } from './aggregators.js';
export { aggregate, aggregateScored, aggregatorNames, getAggregator, registerAggregator, type ScoredAggregate } from './aggregator-registry.js';
