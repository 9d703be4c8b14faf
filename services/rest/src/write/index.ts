export { readPayload, parseColumns, type JsonPayload } from './payload';
export {
  buildInsertSql, buildPutSql, buildUpdateSql, buildDeleteSql, putMismatch, maxAffectedExceeded, locationHeader,
  type Returning, type WriteRequest, type InsertRequest, type UpdateRequest, type WriteStatement,
} from './sql';
