import { GraphiQL, type GraphiQLProps } from 'graphiql';
import 'graphiql/style.css';

/**
 * The `graphiql` package's editor, in a module of its own so the page loads it (and CodeMirror) only when
 * GraphiQL is opened. A new `fetcher` (another role) makes it read the schema again.
 */
export default function GraphiqlEditor({ fetcher }: { fetcher: GraphiQLProps['fetcher'] }) {
  return <GraphiQL fetcher={fetcher} />;
}
