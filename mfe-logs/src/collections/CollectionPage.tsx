import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useFeatureFlag, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, EmptyState, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { collectionCurlExamples, collectionEventsSql, Permission, type EventCollection } from '@dash/contracts';
import { useCollectionsQuery, useWarehouseTenantQuery } from '../api/collections';
import { ExplorerWorkbench } from '../explorer/ExplorerWorkbench';
import { DeleteCollectionDialog, RenameCollectionDialog } from './CollectionDialogs';
import { NO_WRITE_PERMISSION } from './CollectionsMenu';
import './collections.css';

/** /project/{ref}/logs/collections/{collectionToken}: how to send events, then the explorer over them. */
export function CollectionPage() {
  const ref = useProjectRef();
  const { collectionToken = '' } = useParams();
  const warehouse = useFeatureFlag('warehouse');
  const { data, isLoading } = useCollectionsQuery({ ref }, { skip: !warehouse });
  const collection = data?.find((c) => c.token === collectionToken);
  if (!warehouse) return <EmptyState title="Event collections are not enabled" description="The warehouse feature is off for this organization." />;
  if (isLoading) return <Spinner label="Loading collection" />;
  if (!collection) {
    return (
      <EmptyState
        title="Collection not found"
        description="It may have been deleted."
        action={<Link to={`/project/${ref}/logs/explorer`}>Go to the logs explorer</Link>}
      />
    );
  }
  return <CollectionView key={collection.token} projectRef={ref} collection={collection} />;
}

function CollectionView({ projectRef: ref, collection }: { projectRef: string; collection: EventCollection }) {
  const { can } = usePermission(Permission.TenantSqlAdminWrite);
  const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null);
  const denied = can ? undefined : NO_WRITE_PERMISSION;
  return (
    <div className="logs-collection">
      <PageHeader
        title={collection.name}
        description="An event collection: send events with a warehouse access token, then query them here."
        actions={
          <>
            <Button onClick={() => setDialog('rename')} disabledReason={denied}>
              Rename
            </Button>
            <Button variant="danger" onClick={() => setDialog('delete')} disabledReason={denied}>
              Delete
            </Button>
          </>
        }
      />
      <IngestPanel projectRef={ref} collection={collection} />
      <ExplorerWorkbench initialSql={collectionEventsSql(collection.token)} title="Events" autoRun />
      {dialog === 'rename' && <RenameCollectionDialog collection={collection} onClose={() => setDialog(null)} />}
      {dialog === 'delete' && <DeleteCollectionDialog collection={collection} onClose={() => setDialog(null)} />}
    </div>
  );
}

function CopyButton({ text, what }: { text: string; what: string }) {
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast('success', `Copied ${what}`);
    } catch {
      toast('error', `Could not copy ${what}: select it and copy it yourself`);
    }
  };
  return (
    <Button size="sm" onClick={() => void copy()} aria-label={`Copy ${what}`}>
      Copy
    </Button>
  );
}

/** The collection's token, the ingest limits and copyable curl commands (JSON array, NDJSON). */
function IngestPanel({ projectRef: ref, collection }: { projectRef: string; collection: EventCollection }) {
  const { data: tenant } = useWarehouseTenantQuery({ ref });
  const examples = collectionCurlExamples(window.location.origin, ref, collection.token);
  return (
    <section className="logs-ingest" aria-label="Send events">
      <div className="logs-ingest__row">
        <span className="logs-ingest__label">Collection token</span>
        <code className="logs-ingest__token">{collection.token}</code>
        <CopyButton text={collection.token} what="collection token" />
      </div>
      <p className="logs-ingest__text">
        Send a JSON array of events, or NDJSON, with a{' '}
        <Link to={`/project/${ref}/logs/collections/access-tokens`}>warehouse access token</Link> as <code>WAREHOUSE_TOKEN</code>. Each
        event has an optional <code>timestamp</code> (ISO 8601 or epoch milliseconds; now by default), an <code>event_message</code> (or{' '}
        <code>message</code>), and any other fields, kept as its metadata.
        {tenant &&
          ` At most ${tenant.ingest.max_events.toLocaleString('en-US')} events and ${Math.round(tenant.ingest.max_body_bytes / 1024 / 1024)} MB per request, ${tenant.ingest.events_per_second.toLocaleString('en-US')} events/s per token.`}
      </p>
      <div className="logs-ingest__example">
        <pre aria-label="curl example (JSON)">{examples.json}</pre>
        <CopyButton text={examples.json} what="curl command" />
      </div>
      <details className="logs-ingest__more">
        <summary>NDJSON (one event per line)</summary>
        <div className="logs-ingest__example">
          <pre aria-label="curl example (NDJSON)">{examples.ndjson}</pre>
          <CopyButton text={examples.ndjson} what="NDJSON curl command" />
        </div>
      </details>
    </section>
  );
}
