import type { PgPolicy, PolicyCreateWithCommand, PolicyUpdate } from '@dash/contracts';
import { createPolicySql, updatePolicySql } from './sql';

/** The review step of a new policy: one entry per policy to be created, with its SQL. */
export function CreateReview({ payloads }: { payloads: PolicyCreateWithCommand[] }) {
  return (
    <div className="st-review">
      <p className="st-review__intro">
        {payloads.length === 1
          ? 'This policy will be created. Saving runs the statement below.'
          : `${payloads.length} policies will be created, one per allowed operation. Saving runs the statements below.`}
      </p>
      <ol className="st-review__list" aria-label="Policies to be created">
        {payloads.map((payload) => (
          <li key={payload.name} className="st-review__item" aria-label={payload.name}>
            <div className="st-review__head">
              <span className={`st-command st-command--${payload.command.toLowerCase()}`}>{payload.command}</span>
              <span className="st-review__name">{payload.name}</span>
            </div>
            <pre className="st-sql">{createPolicySql(payload)}</pre>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The review step of an edit: the statements that change the policy, or that nothing changes. */
export function UpdateReview({ policy, update }: { policy: PgPolicy; update: PolicyUpdate }) {
  const statements = updatePolicySql(policy, update);
  if (statements.length === 0) return <p className="st-review__intro">Nothing to save: the policy is unchanged.</p>;
  return (
    <div className="st-review">
      <p className="st-review__intro">Saving runs {statements.length === 1 ? 'this statement' : 'these statements in one transaction'}:</p>
      <pre className="st-sql" aria-label="SQL to run">
        {statements.join('\n\n')}
      </pre>
    </div>
  );
}
