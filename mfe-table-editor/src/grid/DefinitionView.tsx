import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { ErrorPanel, Spinner } from '@dash/shell-sdk/ui';
import { useEditorTableDefinitionQuery } from '../api/tables';

/** The relation's SQL definition (the toolbar's definition view). */
export function DefinitionView({ id, name }: { id: number; name: string }) {
  const ref = useProjectRef();
  const definition = useEditorTableDefinitionQuery({ ref, id });
  if (definition.isLoading) return <Spinner label="Loading definition" />;
  if (definition.error) {
    return <ErrorPanel title="Failed to retrieve the definition" message={errorMessage(definition.error)} onRetry={() => definition.refetch()} />;
  }
  return (
    <section className="te-definition" aria-label={`Definition of ${name}`}>
      <pre className="te-definition__sql mono">{definition.data?.sql}</pre>
    </section>
  );
}
