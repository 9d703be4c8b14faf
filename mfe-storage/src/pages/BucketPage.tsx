import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { Badge, EmptyState, ErrorPanel, Spinner } from '@dash/shell-sdk/ui';
import { Messages } from '@dash/contracts';
import { useStorageBucketsQuery } from '../api/buckets';
import { BucketActions } from '../components/BucketActions';
import { Explorer } from '../explorer/Explorer';
import { storagePaths } from '../paths';
import { bucketsFailureHint } from './BucketsPage';

/** One bucket: its header (name, access, bucket menu) and its file explorer filling the area. */
export function BucketPage() {
  const ref = useProjectRef();
  const { bucketId = '' } = useParams();
  const { data, error, isLoading, isFetching, refetch } = useStorageBucketsQuery({ ref });
  const bucket = data?.find((b) => b.id === bucketId);
  /** Emptying the bucket starts its explorer afresh. */
  const [emptied, setEmptied] = useState(0);

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
    <div className="sx-page">
      <header className="sx-page__header">
        {back}
        <div className="sx-page__title">
          <span className="st-bucket-icon st-bucket-icon--lg" aria-hidden />
          <h1>{bucket.name}</h1>
          {bucket.public ? <Badge tone="warning">Public</Badge> : <Badge>Private</Badge>}
          <span className="sx-page__actions">
            <BucketActions bucket={bucket} onEmptied={() => setEmptied((n) => n + 1)} />
          </span>
        </div>
      </header>
      <Explorer key={`${bucket.id}:${emptied}`} bucket={bucket} />
    </div>
  );
}
