import { Button, usePermission } from '@dash/shell-sdk';
import { Messages, Permission } from '@dash/contracts';

export function NewBucketButton({ onClick }: { onClick: () => void }) {
  const { can } = usePermission(Permission.StorageAdminWrite);
  return (
    <Button variant="primary" icon={<span aria-hidden>+</span>} disabledReason={can ? undefined : Messages.needPermissionsCreateBuckets} onClick={onClick}>
      New bucket
    </Button>
  );
}
