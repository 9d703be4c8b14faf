import { useState } from 'react';
import { createPortal } from 'react-dom';
import { errorMessage, useConfirm, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { MenuButton } from '@dash/shell-sdk/ui';
import { Messages, Permission, type Bucket } from '@dash/contracts';
import { useStorageEmptyBucketMutation } from '../api/buckets';
import { BucketFormDialog } from './BucketFormDialog';
import { DeleteBucketDialog } from './DeleteBucketDialog';

/**
 * A bucket's menu: Edit bucket, Empty bucket and Delete bucket, each disabled with the spec's reason
 * for members without the storage write permission. Used in the buckets list and the bucket's header.
 * `onEmptied` runs after the bucket was emptied (the explorer reloads its listing).
 */
export function BucketActions({ bucket, onEmptied }: { bucket: Bucket; onEmptied?: () => void }) {
  const ref = useProjectRef();
  const confirm = useConfirm();
  const toast = useToast();
  const { can, isLoading } = usePermission(Permission.StorageAdminWrite);
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const [emptyBucket] = useStorageEmptyBucketMutation();
  // Each action says what it needs (not the create-buckets text), beside its own item.
  const reason = (message: string) => (can || isLoading ? undefined : message);

  const onEmpty = async () => {
    const confirmed = await confirm({
      title: `Empty bucket ${bucket.name}`,
      message: (
        <>
          Every file and folder in <strong>{bucket.name}</strong> will be deleted. The bucket and its policies stay. {Messages.thisCannotBeUndone}
        </>
      ),
      confirmLabel: 'Empty bucket',
      variant: 'danger',
    });
    if (!confirmed) return;
    try {
      await emptyBucket({ ref, id: bucket.id }).unwrap();
      toast('success', `Successfully emptied bucket ${bucket.name}`);
      onEmptied?.();
    } catch (error) {
      toast('error', Messages.emptyBucketFailed(errorMessage(error)));
    }
  };

  return (
    <>
      <MenuButton
        label={`Actions for bucket ${bucket.name}`}
        items={[
          { label: 'Edit bucket', onSelect: () => setDialog('edit'), disabled: isLoading, disabledReason: reason(Messages.needPermissionsEditBuckets) },
          { label: 'Empty bucket', onSelect: () => void onEmpty(), disabled: isLoading, disabledReason: reason(Messages.needPermissionsEmptyBuckets) },
          { label: 'Delete bucket', onSelect: () => setDialog('delete'), disabled: isLoading, disabledReason: reason(Messages.needPermissionsDeleteBuckets), danger: true },
        ]}
      />
      {/* On the page's body: the menu sits in table cells and headers whose styles a dialog must not take. */}
      {dialog &&
        createPortal(
          <div className="st-layer">
            {dialog === 'edit' ? <BucketFormDialog bucket={bucket} onClose={() => setDialog(null)} /> : <DeleteBucketDialog bucket={bucket} onClose={() => setDialog(null)} />}
          </div>,
          document.body,
        )}
    </>
  );
}
