import type { SqlQuery } from '@dash/service-kit';
import { listTriggersQuery } from './triggers';

/** The function the dashboard's webhooks run (Supabase's `supabase_functions` schema). */
export const HTTP_REQUEST_FUNCTION = { schema: 'supabase_functions', name: 'http_request' } as const;

/** A trigger function's body that calls pg_net's request functions. */
export const PG_NET_CALL = '\\mnet\\.http_(get|post|delete)[[:space:]]*\\(';

/**
 * Webhook triggers: the triggers list (user schemas) narrowed to triggers that run
 * `supabase_functions.http_request`, or a function whose body calls `net.http_*`.
 */
export function listWebhooksQuery(): SqlQuery {
  const triggers = listTriggersQuery({});
  const schema = triggers.values.length + 1;
  const isHttpRequest = `(w.function_schema = $${schema} and w.function_name = $${schema + 1})`;
  return {
    text: `
select w.*, case when ${isHttpRequest} then 'http_request' else 'function' end as kind
from (${triggers.text}) w
join pg_catalog.pg_trigger t on t.oid = w.id::oid
join pg_catalog.pg_proc p on p.oid = t.tgfoid
where ${isHttpRequest} or p.prosrc ~* $${schema + 2}
order by w.schema, w.table, w.name`,
    values: [...triggers.values, HTTP_REQUEST_FUNCTION.schema, HTTP_REQUEST_FUNCTION.name, PG_NET_CALL],
  };
}
