import { Link } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { EmptyState } from '@dash/shell-sdk/ui';
import { ApiDocsMessages } from '@dash/contracts';
import { apiDocsPaths } from './paths';

/** `/project/:ref/api/graphiql`: this product serves no GraphQL endpoint, and says so. */
export function GraphiqlPage() {
  const ref = useProjectRef();
  return (
    <div className="ad-center">
      <EmptyState
        title={ApiDocsMessages.graphqlTitle}
        description={ApiDocsMessages.graphql}
        action={
          <Link className="dash-btn dash-btn--default dash-btn--md" to={apiDocsPaths.page(ref, 'tables-intro')}>
            Open the REST API docs
          </Link>
        }
      />
    </div>
  );
}
