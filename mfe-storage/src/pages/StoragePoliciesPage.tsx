import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage, useConfirm, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, EmptyState, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { Messages, Permission, type PgPolicy } from '@dash/contracts';
import { useStorageBucketsQuery } from '../api/buckets';
import { useStorageDeletePolicyMutation, useStoragePoliciesQuery } from '../api/policies';
import { PoliciesCard } from '../components/PoliciesCard';
import { storagePaths } from '../paths';
import type { PolicyTarget } from '../storage-policies/form';
import { groupStoragePolicies } from '../storage-policies/grouping';
import { StoragePolicyDialog } from '../storage-policies/PolicyDialog';
import { bucketsFailureHint } from './BucketsPage';

const countOf = (count: number, where: string) => `${count} ${count === 1 ? 'policy' : 'policies'} ${where}`;

/** The storage policies page: a card per bucket, then the other policies on storage.objects and those on storage.buckets. */
export function StoragePoliciesPage() {
  const ref = useProjectRef();
  const confirm = useConfirm();
  const toast = useToast();
  const buckets = useStorageBucketsQuery({ ref });
  const policies = useStoragePoliciesQuery({ ref });
  const { can, isLoading: permissionLoading } = usePermission(Permission.TenantSqlAdminWrite);
  const [deletePolicy] = useStorageDeletePolicyMutation();
  const [dialog, setDialog] = useState<{ target: PolicyTarget; policy?: PgPolicy } | null>(null);
  const writeReason = can || permissionLoading ? undefined : Messages.needPermissionsEditPolicies;

  const sortedBuckets = useMemo(() => [...(buckets.data ?? [])].sort((a, b) => a.name.localeCompare(b.name)), [buckets.data]);
  const groups = useMemo(() => groupStoragePolicies(policies.data ?? [], sortedBuckets), [policies.data, sortedBuckets]);

  const onDelete = async (policy: PgPolicy) => {
    const confirmed = await confirm({
      title: Messages.confirmDeletePolicy,
      message: (
        <>
          Are you sure you want to delete the policy <strong>{policy.name}</strong>? This is permanent: the access it gives ends at once, and the
          policy cannot be recovered.
        </>
      ),
      confirmLabel: 'Delete',
      variant: 'danger',
    });
    if (!confirmed) return;
    try {
      await deletePolicy({ ref, id: policy.id }).unwrap();
      toast('success', Messages.policyDeleted);
    } catch (error) {
      toast('error', Messages.deletePolicyFailed, { description: errorMessage(error) });
    }
  };

  const cardActions = (target: PolicyTarget) => ({
    writeReason,
    writeDisabled: permissionLoading,
    onNew: () => setDialog({ target }),
    onEdit: (policy: PgPolicy) => setDialog({ target, policy }),
    onDelete: (policy: PgPolicy) => void onDelete(policy),
  });

  let body;
  if (buckets.isLoading || policies.isLoading) {
    body = <Spinner label="Loading storage policies" />;
  } else if (buckets.error) {
    body = <ErrorPanel title={Messages.fetchBucketsFailed} message={bucketsFailureHint(buckets.error)} onRetry={() => buckets.refetch()} retrying={buckets.isFetching} />;
  } else if (policies.error) {
    body = (
      <ErrorPanel title="Failed to retrieve storage policies" message={errorMessage(policies.error)} onRetry={() => policies.refetch()} retrying={policies.isFetching} />
    );
  } else {
    body = (
      <>
        {sortedBuckets.length === 0 ? (
          <EmptyState
            title={Messages.storagePoliciesNoBuckets}
            description="Policies decide who may read, upload, change and delete the files of a bucket."
            action={
              <Link className="dash-btn dash-btn--primary dash-btn--md" to={storagePaths.buckets(ref)}>
                Go to buckets
              </Link>
            }
          />
        ) : (
          <div className="st-cards">
            {sortedBuckets.map((bucket) => {
              const bucketPolicies = groups.byBucket.get(bucket.id) ?? [];
              return (
                <PoliciesCard
                  key={bucket.id}
                  label={`Bucket ${bucket.name}`}
                  testId={`storage-policies-bucket-${bucket.id}`}
                  title={
                    <Link className="st-policies__title st-bucket-link" to={storagePaths.bucket(ref, bucket.id)}>
                      <span className="st-bucket-icon" aria-hidden />
                      {bucket.name}
                    </Link>
                  }
                  badge={bucket.public ? <Badge tone="warning">Public</Badge> : undefined}
                  count={countOf(bucketPolicies.length, 'in the bucket')}
                  policies={bucketPolicies}
                  {...cardActions({ table: 'objects', bucket: bucket.id })}
                />
              );
            })}
          </div>
        )}
        <h2 className="st-section-title">Schema storage</h2>
        <div className="st-cards">
          <PoliciesCard
            label="Other policies"
            testId="storage-policies-other"
            title={<h3 className="st-policies__title">Other policies</h3>}
            subtitle={
              <>
                On <code>storage.objects</code>, not restricted to one of the buckets above.
              </>
            }
            count={countOf(groups.otherObjects.length, 'under objects')}
            policies={groups.otherObjects}
            {...cardActions({ table: 'objects' })}
          />
          <PoliciesCard
            label="Policies"
            testId="storage-policies-buckets"
            title={<h3 className="st-policies__title">Policies</h3>}
            subtitle={
              <>
                On <code>storage.buckets</code>: who may list, create, change and delete buckets through the API.
              </>
            }
            count={countOf(groups.bucketsTable.length, 'under buckets')}
            policies={groups.bucketsTable}
            {...cardActions({ table: 'buckets' })}
          />
        </div>
      </>
    );
  }

  return (
    <>
      <PageHeader title="Storage policies" description="Safeguard your files with policies that define the operations allowed for your users at bucket level." />
      {body}
      {dialog && <StoragePolicyDialog target={dialog.target} policy={dialog.policy} onClose={() => setDialog(null)} />}
    </>
  );
}
