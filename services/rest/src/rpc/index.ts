export { resolveRoutine, callIsReadOnly, type CallOptions } from './resolve';
export { buildRpcSql, takesWholeBody, type RpcArguments, type RpcRequest } from './sql';
