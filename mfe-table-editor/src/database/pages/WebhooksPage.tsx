import { Link } from 'react-router-dom';
import { errorMessage, useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, Button, InlineError, Spinner } from '@dash/shell-sdk/ui';
import type { DatabaseWebhook } from '@dash/contracts';
import { useDatabaseExtensionsQuery, useEnableExtensionMutation } from '../../api/extensions';
import { useDatabaseWebhooksQuery } from '../../api/webhooks';
import { editorPaths } from '../../paths';
import { databasePaths } from '../paths';
import { PG_NET, pgNetState } from '../pg-net';
import { DatabasePage, ListState, useWriteDisabledReason } from '../common';
import '../platform.css';

/** Says what webhooks need when pg_net is missing, and offers to enable it where the server has it. */
function PgNetNotice({ state }: { state: 'available' | 'unavailable' }) {
  const ref = useProjectRef();
  const [enable, { isLoading }] = useEnableExtensionMutation();
  const toast = useToast();
  const disabledReason = useWriteDisabledReason('enable extensions');
  if (state === 'unavailable') {
    return (
      <div className="dash-callout pw-notice" role="note">
        <p className="dash-callout__title">pg_net is not available on this database server</p>
        <p className="dash-callout__text">
          Webhooks send their HTTP requests with the <code>pg_net</code> extension, and this Postgres server does not have it (it is not in{' '}
          <code>pg_available_extensions</code>). Install pg_net on the server, a task for its administrator, then enable it here. Webhook triggers
          already in the database are listed below; they cannot send requests until then.
        </p>
      </div>
    );
  }
  const onEnable = async () => {
    try {
      await enable({ ref, body: { name: PG_NET, cascade: true } }).unwrap();
      toast('success', 'Enabled pg_net: webhooks can send requests');
    } catch (error) {
      toast('error', `Failed to enable pg_net: ${errorMessage(error)}`);
    }
  };
  return (
    <div className="dash-callout pw-notice" role="note">
      <p className="dash-callout__title">Enable pg_net to use webhooks</p>
      <p className="dash-callout__text">
        Webhooks send their HTTP requests with the <code>pg_net</code> extension, which is available on this server but not enabled in this
        database.
      </p>
      <Button size="sm" loading={isLoading} disabledReason={disabledReason} onClick={() => void onEnable()}>
        Enable pg_net
      </Button>
    </div>
  );
}

function Target({ hook }: { hook: DatabaseWebhook }) {
  if (hook.kind === 'function') {
    return (
      <span className="db-muted">
        function <code>{hook.function_schema}.{hook.function_name}</code>
      </span>
    );
  }
  return (
    <span className="pw-target">
      {hook.method && <Badge>{hook.method}</Badge>} <code>{hook.url ?? '–'}</code>
      {hook.timeout_ms !== null && <span className="db-muted db-nowrap"> · timeout {hook.timeout_ms} ms</span>}
    </span>
  );
}

/** Database webhooks: triggers that send an HTTP request (through pg_net) when rows change. */
export function WebhooksPage() {
  const ref = useProjectRef();
  const extensions = useDatabaseExtensionsQuery({ ref });
  const hooks = useDatabaseWebhooksQuery({ ref }, { refetchOnMountOrArgChange: true });
  const state = pgNetState(extensions.data);
  const list = hooks.data ?? [];
  return (
    <DatabasePage
      title="Database Webhooks"
      description="Send an HTTP request when rows of a table are inserted, updated or deleted. A webhook is a trigger that makes the request with pg_net."
    >
      {extensions.isLoading && <Spinner label="Checking for pg_net" />}
      {extensions.error && <InlineError title="Failed to check for pg_net" message={errorMessage(extensions.error)} onRetry={extensions.refetch} />}
      {(state === 'available' || state === 'unavailable') && <PgNetNotice state={state} />}
      <ListState
        what="webhooks"
        isLoading={hooks.isLoading}
        error={hooks.error}
        onRetry={hooks.refetch}
        retrying={hooks.isFetching}
        empty={
          list.length > 0
            ? null
            : {
                title: 'No webhooks',
                description: (
                  <>
                    Triggers that run <code>supabase_functions.http_request</code>, or a function calling <code>net.http_post</code>, show here.
                    Create one on the <Link to={databasePaths.page(ref, 'triggers')}>Triggers</Link> page.
                  </>
                ),
              }
        }
      >
        <table className="dash-table" aria-label="Webhooks">
          <thead>
            <tr>
              <th>Name</th>
              <th>Table</th>
              <th>Events</th>
              <th>Request</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {list.map((hook) => (
              <tr key={hook.id}>
                <td className="db-strong">{hook.name}</td>
                <td>
                  <Link to={editorPaths.table(ref, hook.table_id, hook.schema)}>
                    {hook.schema}.{hook.table}
                  </Link>
                </td>
                <td className="db-nowrap">
                  {hook.activation} {hook.events.join(' / ')}
                </td>
                <td>
                  <Target hook={hook} />
                </td>
                <td>{hook.enabled_mode === 'DISABLED' ? <Badge tone="warning">Disabled</Badge> : <Badge tone="success">Enabled</Badge>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
    </DatabasePage>
  );
}
