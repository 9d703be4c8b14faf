import type { ReactNode } from 'react';
import { Button, MenuButton } from '@dash/shell-sdk/ui';
import { Messages, type PgPolicy } from '@dash/contracts';
import { ActionsHeader, Chips } from './cells';

function PolicyRow({ policy, writeReason, writeDisabled, onEdit, onDelete }: {
  policy: PgPolicy;
  writeReason?: string;
  writeDisabled?: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const expression = policy.definition ?? policy.check;
  return (
    <tr>
      <td>
        <div className="st-policy__name">{policy.name}</div>
        {expression !== null && (
          <div className="st-policy__expr mono" title={expression}>
            {expression}
          </div>
        )}
      </td>
      <td className="st-policies__command">
        <span className={`st-command st-command--${policy.command.toLowerCase()}`}>{policy.command}</span>
      </td>
      <td className="st-policies__roles">
        <Chips values={policy.roles} />
      </td>
      <td className="st-table__actions">
        <MenuButton
          label={`Actions for policy ${policy.name}`}
          items={[
            { label: 'Edit', onSelect: onEdit, disabled: writeDisabled, disabledReason: writeReason },
            { label: 'Delete', onSelect: onDelete, disabled: writeDisabled, disabledReason: writeReason, danger: true },
          ]}
        />
      </td>
    </tr>
  );
}

/**
 * One card of the storage policies page: a bucket's policies, the other policies on storage.objects,
 * or the policies on storage.buckets. Policies come sorted by name.
 */
export function PoliciesCard({ label, title, badge, subtitle, count, policies, writeReason, writeDisabled, testId, onNew, onEdit, onDelete }: {
  /** The card's accessible name. */
  label: string;
  title: ReactNode;
  badge?: ReactNode;
  subtitle?: ReactNode;
  /** The counts line, e.g. "2 policies in the bucket". */
  count: string;
  policies: PgPolicy[];
  /** Why the member may not write policies, if so. */
  writeReason?: string;
  /** Writes wait, without a reason, while the member's permissions load. */
  writeDisabled?: boolean;
  testId: string;
  onNew: () => void;
  onEdit: (policy: PgPolicy) => void;
  onDelete: (policy: PgPolicy) => void;
}) {
  return (
    <section className="dash-card st-policies" aria-label={label} data-testid={testId}>
      <header className="dash-card__header st-policies__header">
        <div className="st-policies__heading">
          <div className="st-policies__title-row">
            {title}
            {badge}
          </div>
          {subtitle && <p className="st-policies__subtitle">{subtitle}</p>}
        </div>
        <span className="st-policies__count">{count}</span>
        <Button size="sm" onClick={onNew} disabled={writeDisabled} disabledReason={writeReason}>
          New policy
        </Button>
      </header>
      {policies.length === 0 ? (
        <p className="st-policies__empty">{Messages.noPoliciesYet}</p>
      ) : (
        <table className="dash-table st-policies__table" aria-label={`Policies of ${label}`}>
          <thead>
            <tr>
              <th>Name</th>
              <th className="st-policies__command">Command</th>
              <th className="st-policies__roles">Applied to</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {policies.map((policy) => (
              <PolicyRow
                key={policy.id}
                policy={policy}
                writeReason={writeReason}
                writeDisabled={writeDisabled}
                onEdit={() => onEdit(policy)}
                onDelete={() => onDelete(policy)}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
