import { usePermission } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import { Messages, Permission } from '@dash/contracts';

export function NewBucketButton({ onClick }: { onClick: () => void }) {
  const { can } = usePermission(Permission.StorageAdminWrite);
  return (
    <Button variant="primary" icon={<span aria-hidden>+</span>} disabledReason={can ? undefined : Messages.needPermissionsCreateBuckets} onClick={onClick}>
      New bucket
    </Button>
  );
}
