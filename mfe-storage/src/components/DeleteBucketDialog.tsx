import { useNavigate } from 'react-router-dom';
import { errorMessage, useProjectRef, useToast } from '@dash/shell-sdk';
import { ConfirmByTypingDialog } from '@dash/shell-sdk/ui';
import { Messages, type Bucket } from '@dash/contracts';
import { useStorageDeleteBucketMutation, useStorageEmptyBucketMutation } from '../api/buckets';
import { storagePaths } from '../paths';

/**
 * The spec's bucket deletion: the user types the bucket's name; then the bucket is emptied and deleted
 * (the service drops its policies with it), and the user lands on the buckets page.
 */
export function DeleteBucketDialog({ bucket, onClose }: { bucket: Bucket; onClose: () => void }) {
  const ref = useProjectRef();
  const navigate = useNavigate();
  const toast = useToast();
  const [emptyBucket, emptying] = useStorageEmptyBucketMutation();
  const [deleteBucket, deleting] = useStorageDeleteBucketMutation();
  const busy = emptying.isLoading || deleting.isLoading;

  const onConfirm = async () => {
    try {
      await emptyBucket({ ref, id: bucket.id }).unwrap();
    } catch (error) {
      toast('error', Messages.emptyBucketFailed(errorMessage(error)));
      return;
    }
    try {
      await deleteBucket({ ref, id: bucket.id }).unwrap();
    } catch (error) {
      toast('error', Messages.deleteBucketFailed(errorMessage(error)));
      return;
    }
    toast('success', Messages.bucketDeleted(bucket.name));
    onClose();
    navigate(storagePaths.buckets(ref));
  };

  return (
    <ConfirmByTypingDialog
      title={Messages.confirmDeleteBucket(bucket.name)}
      expected={bucket.name}
      warning={Messages.cannotRecoverBucket}
      detail={Messages.bucketDataLost}
      action="Delete bucket"
      busyAction="Deleting bucket"
      busy={busy}
      onConfirm={() => void onConfirm()}
      onClose={onClose}
    />
  );
}
