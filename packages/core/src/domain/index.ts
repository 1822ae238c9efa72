export { outOfDomainNote, outOfDomainReason, type DomainCheck, type DomainRecord } from './domain-check.js';
export { tokenDomainCheck, tokenRanges, unknownTokenShare, validateTokenDomainSpec, type TokenDomainSpec } from './token-domain.js';
