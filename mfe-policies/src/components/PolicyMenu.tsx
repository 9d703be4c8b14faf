import { MenuButton } from '@dash/shell-sdk/ui';
import { Messages, type PgPolicy } from '@dash/contracts';

/** A policy's menu: edit and delete, disabled with the reason for members who may not write. */
export function PolicyMenu({ policy, canWrite, onEdit, onDelete }: {
  policy: PgPolicy;
  canWrite: boolean | undefined;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const reason = canWrite === false ? Messages.needPermissionsEditPolicies : undefined;
  return (
    <MenuButton
      label={`Actions for policy ${policy.name}`}
      menuLabel={`Policy ${policy.name}`}
      items={[
        { label: 'Edit policy', onSelect: onEdit, disabled: canWrite === undefined, disabledReason: reason },
        { label: 'Delete policy', onSelect: onDelete, disabled: canWrite === undefined, disabledReason: reason, danger: true },
      ]}
    />
  );
}
