export { builtInAggregators, type Aggregator, type BuiltInAggregatorName } from './aggregators.js';
export { aggregate, aggregatorNames, getAggregator, registerAggregator } from './aggregator-registry.js';
