export { PostgrestError } from './errors';
export { MAX_NESTING } from './cursor';
export { parseSelect } from './select';
export { parseFilter, parseLogic } from './filter';
export { parseOrder } from './order';
export { parseRange, contentRange, type Range, type RangeInput } from './range';
export { buildReadSql, buildCountPlanSql, type EmbedOptions, type ReadOptions, quoteIdent, arrayLiteral, Parameters, type ReadQuery, type Statement } from './sql';
export type * from './types';
