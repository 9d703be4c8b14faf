import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { Badge, EmptyState, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { type Bucket, formatBytes, Messages } from '@dash/contracts';
import { useStorageBucketsQuery } from '../api/buckets';
import { BucketActions } from '../components/BucketActions';
import { ActionsHeader, Chips } from '../components/cells';
import { BucketFormDialog } from '../components/BucketFormDialog';
import { NewBucketButton } from '../components/NewBucketButton';
import { formatDate } from '../format';
import { storagePaths } from '../paths';

/** The spec's wording for a failed list: a preview branch has no storage tenant yet. */
export function bucketsFailureHint(error: unknown): string {
  return /tenant config/i.test(errorMessage(error, '')) ? Messages.storageNotOnPreviewBranches : Messages.refreshToTryAgain;
}

export function MimeTypes({ types }: { types: string[] | null }) {
  if (!types || types.length === 0) return <span className="st-muted">Any</span>;
  return <Chips values={types} />;
}

function BucketRow({ projectRef, bucket }: { projectRef: string; bucket: Bucket }) {
  return (
    <tr>
      <td>
        <Link className="st-bucket-link" to={storagePaths.bucket(projectRef, bucket.id)}>
          <span className="st-bucket-icon" aria-hidden />
          {bucket.name}
        </Link>
      </td>
      <td>{bucket.public ? <Badge tone="warning">Public</Badge> : <Badge>Private</Badge>}</td>
      <td className="st-nowrap">{bucket.file_size_limit === null ? <span className="st-muted">Project limit</span> : formatBytes(bucket.file_size_limit)}</td>
      <td>
        <MimeTypes types={bucket.allowed_mime_types} />
      </td>
      <td className="st-nowrap st-muted" title={bucket.created_at}>
        {formatDate(bucket.created_at)}
      </td>
      <td className="st-table__actions">
        <BucketActions bucket={bucket} />
      </td>
    </tr>
  );
}

/** The project's buckets, with New bucket and each bucket's menu for members who may change them. */
export function BucketsPage() {
  const ref = useProjectRef();
  const [creating, setCreating] = useState(false);
  const { data, error, isLoading, isFetching, refetch } = useStorageBucketsQuery({ ref });
  const buckets = useMemo(() => [...(data ?? [])].sort((a, b) => a.name.localeCompare(b.name)), [data]);
  const openCreate = () => setCreating(true);

  let body;
  if (isLoading) {
    body = <Spinner label="Loading buckets" />;
  } else if (error) {
    body = <ErrorPanel title={Messages.fetchBucketsFailed} message={bucketsFailureHint(error)} onRetry={() => refetch()} retrying={isFetching} />;
  } else if (buckets.length === 0) {
    body = (
      <EmptyState
        title={Messages.noBuckets}
        description="Buckets hold the files of this project. Each has its own visibility, size limit and allowed file types."
        action={<NewBucketButton onClick={openCreate} />}
      />
    );
  } else {
    body = (
      <div className="dash-card st-table-card">
        <table className="dash-table" aria-label="Buckets">
          <thead>
            <tr>
              <th>Name</th>
              <th>Access</th>
              <th>File size limit</th>
              <th>Allowed MIME types</th>
              <th>Created</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {buckets.map((bucket) => (
              <BucketRow key={bucket.id} projectRef={ref} bucket={bucket} />
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <>
      <PageHeader
        title="Buckets"
        description="Containers for the files of this project, each with its own access and upload rules."
        actions={!error && buckets.length > 0 ? <NewBucketButton onClick={openCreate} /> : undefined}
      />
      {body}
      {creating && <BucketFormDialog onClose={() => setCreating(false)} />}
    </>
  );
}
