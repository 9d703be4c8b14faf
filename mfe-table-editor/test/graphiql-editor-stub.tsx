import { useState } from 'react';
import type { GraphqlRequest } from '../src/api-docs/GraphiqlPage';

/**
 * Stands in for the `graphiql` editor in jsdom (it is ESM-only and draws with CodeMirror): a button runs a
 * query through the page's fetcher, as GraphiQL's run button does, and shows the reply or the error.
 */
export default function GraphiqlEditorStub({ fetcher }: { fetcher: (request: GraphqlRequest, options?: { headers?: Record<string, unknown> }) => Promise<unknown> }) {
  const [shown, setShown] = useState('');
  // What GraphiQL's Headers tab holds, as it passes it to the fetcher.
  const [headers, setHeaders] = useState('');
  return (
    <div>
      <button
        type="button"
        onClick={() =>
          fetcher({ query: '{ allTodos { nodes { title } } }' }, headers ? { headers: JSON.parse(headers) as Record<string, unknown> } : undefined).then(
            (reply) => setShown(JSON.stringify(reply)),
            (error: Error) => setShown(`error: ${error.message}`),
          )
        }
      >
        Run query
      </button>
      <textarea aria-label="Headers" value={headers} onChange={(e) => setHeaders(e.target.value)} />
      <output aria-label="Reply">{shown}</output>
    </div>
  );
}
