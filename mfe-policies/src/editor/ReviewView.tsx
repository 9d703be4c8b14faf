import { createPolicyStatement, policySpecOf, policySqlScript, updatePolicyStatements, type PgPolicy, type PgTable } from '@dash/contracts';
import { sqlSpecOfForm, updatePayload, type PolicyFormValues } from '../policy-form';
import { PolicyPreview } from './PolicyPreview';

/** The statements saving runs: the create, or for an edit only what changed. */
export function reviewStatements(table: Pick<PgTable, 'schema' | 'name'>, policy: PgPolicy | undefined, values: PolicyFormValues): string[] {
  return policy ? updatePolicyStatements(policySpecOf(policy), updatePayload(policy, values)) : [createPolicyStatement(sqlSpecOfForm(values, table))];
}

/** The exact SQL that will run, and the preview. */
export function ReviewView({ table, policy, values, saveError }: { table: PgTable; policy?: PgPolicy; values: PolicyFormValues; saveError?: string }) {
  const statements = reviewStatements(table, policy, values);
  return (
    <div className="pol-review">
      {saveError && (
        <div className="pol-form-error" role="alert">
          Failed to save policy: {saveError}
        </div>
      )}
      <h3 className="pol-section-title">SQL to run</h3>
      {statements.length === 0 ? (
        <p className="pol-review__unchanged">Nothing to save: the policy is unchanged.</p>
      ) : (
        <>
          <p className="dash-field__hint">Saving runs {statements.length === 1 ? 'this statement' : 'these statements in one transaction'}:</p>
          <pre className="pol-sql" aria-label="SQL to run">
            {policySqlScript(statements)}
          </pre>
        </>
      )}
      <PolicyPreview table={table} policy={policy} values={values} />
    </div>
  );
}
