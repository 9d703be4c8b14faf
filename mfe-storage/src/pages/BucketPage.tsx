import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Badge, EmptyState, ErrorPanel, Spinner, useProjectRef } from '@dash/shell-sdk';
import { Messages } from '@dash/contracts';
import { useStorageBucketsQuery } from '../api/buckets';
import { formatDateTime } from '../format';
import { storagePaths } from '../paths';
import { formatBytes } from '../sizes';
import { MimeTypes, bucketsFailureHint } from './BucketsPage';

function Setting({ label, children, hint }: { label: string; children: ReactNode; hint?: ReactNode }) {
  return (
    <div className="st-setting">
      <dt>{label}</dt>
      <dd>
        <div>{children}</div>
        {hint && <p className="st-setting__hint">{hint}</p>}
      </dd>
    </div>
  );
}

/** One bucket: its header and a summary of its settings. */
export function BucketPage() {
  const ref = useProjectRef();
  const { bucketId = '' } = useParams();
  const { data, error, isLoading, isFetching, refetch } = useStorageBucketsQuery({ ref });
  const bucket = data?.find((b) => b.id === bucketId);

  const back = (
    <Link className="st-back" to={storagePaths.buckets(ref)}>
      ← All buckets
    </Link>
  );

  if (!bucket) {
    if (isLoading || isFetching) return <Spinner label="Loading bucket" />;
    if (error) return <ErrorPanel title={Messages.fetchBucketsFailed} message={bucketsFailureHint(error)} onRetry={() => refetch()} />;
    return (
      <>
        {back}
        <EmptyState title="Bucket not found" description={<>This project has no bucket named “{bucketId}”. It may have been deleted.</>} />
      </>
    );
  }

  return (
    <>
      {back}
      <header className="st-bucket-header">
        <span className="st-bucket-icon st-bucket-icon--lg" aria-hidden />
        <h1>{bucket.name}</h1>
        {bucket.public ? <Badge tone="warning">Public</Badge> : <Badge>Private</Badge>}
      </header>
      <section className="dash-card" aria-label="Bucket settings">
        <div className="dash-card__header">
          <h2 className="st-card-title">Bucket settings</h2>
        </div>
        <dl className="st-settings">
          <Setting
            label="Access"
            hint={
              bucket.public
                ? 'Anyone with a file’s URL can read it, without authorization. Uploads and changes follow the storage policies.'
                : 'Every read, upload and change is checked against the storage policies of this bucket.'
            }
          >
            {bucket.public ? 'Public' : 'Private'}
          </Setting>
          <Setting label="File size limit" hint={bucket.file_size_limit === null ? 'No limit of its own: the project’s upload limit applies.' : undefined}>
            {bucket.file_size_limit === null ? 'Project limit' : `${formatBytes(bucket.file_size_limit)} (${bucket.file_size_limit.toLocaleString('en-US')} bytes)`}
          </Setting>
          <Setting label="Allowed MIME types" hint={bucket.allowed_mime_types?.length ? undefined : 'Files of any type can be uploaded.'}>
            <MimeTypes types={bucket.allowed_mime_types} />
          </Setting>
          <Setting label="Bucket id">
            <code>{bucket.id}</code>
          </Setting>
          <Setting label="Created">{formatDateTime(bucket.created_at)}</Setting>
          <Setting label="Last updated">{formatDateTime(bucket.updated_at)}</Setting>
        </dl>
      </section>
    </>
  );
}
