import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { errorMessage, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, Button, EmptyState, ErrorPanel, Modal, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { API_DOCS_PAGES, ApiDocsMessages, Permission, type ApiDocs, type ApiDocsPage as DocsPage } from '@dash/contracts';
import { useApiDocsKeysQuery, useApiDocsProjectQuery, useApiDocsQuery, useApiDocsSettingsQuery, useLazyGeneratedTypesQuery, useLazyRunApiDocsExampleQuery, type RunExampleAnswer } from '../api/api-docs';
import { ANON_KEY_PLACEHOLDER, clientSetup, rpcExample, storageExamples, tableExamples, userExamples, type Example, type RunRequest } from './examples';
import { apiDocsPaths } from './paths';

interface Project {
  url: string;
  anonKey: string;
}

/**
 * `/project/:ref/api`: docs generated from the catalog, chosen by `?page=`, `?resource={table}` or
 * `?rpc={function}`. A paused or starting project is not loaded at all: its notice replaces the docs.
 */
export function ApiDocsPage() {
  const ref = useProjectRef();
  const project = useApiDocsProjectQuery({ ref });
  const active = project.data?.status === 'ACTIVE_HEALTHY';
  const { can } = usePermission(Permission.TenantSqlAdminWrite);
  const docs = useApiDocsQuery({ ref }, { skip: !active });
  const settings = useApiDocsSettingsQuery({ ref }, { skip: !active });
  const keys = useApiDocsKeysQuery({ ref }, { skip: !active || !can });
  const [typesOpen, setTypesOpen] = useState(false);

  let body: ReactNode;
  if (project.isLoading) body = <Spinner label="Loading project" />;
  else if (project.error || !project.data) body = <ErrorPanel title={ApiDocsMessages.loadFailed(errorMessage(project.error))} onRetry={() => project.refetch()} retrying={project.isFetching} />;
  else if (!active) body = <EmptyState title={ApiDocsMessages.inactiveTitle} description={ApiDocsMessages.inactive} />;
  else if (docs.isLoading || settings.isLoading) body = <Spinner label="Loading API docs" />;
  else if (docs.error || !docs.data || !settings.data) body = <ErrorPanel title={ApiDocsMessages.loadFailed(errorMessage(docs.error ?? settings.error))} onRetry={() => docs.refetch()} retrying={docs.isFetching} />;
  else body = <Docs docs={docs.data} project={{ url: settings.data.projectUrl, anonKey: keys.data?.anon ?? ANON_KEY_PLACEHOLDER }} />;

  return (
    <div className="ad-page">
      <PageHeader
        title="API Docs"
        description="Your project's APIs, generated from its database: tables, views and functions, and storage."
        actions={active ? <Button onClick={() => setTypesOpen(true)}>Generate types</Button> : undefined}
      />
      {body}
      {typesOpen && <TypesDialog onClose={() => setTypesOpen(false)} />}
    </div>
  );
}

function Docs({ docs, project }: { docs: ApiDocs; project: Project }) {
  const ref = useProjectRef();
  const [params] = useSearchParams();
  const resource = params.get('resource');
  const rpc = params.get('rpc');
  const pageParam = params.get('page') as DocsPage | null;
  const page: DocsPage = pageParam && API_DOCS_PAGES.includes(pageParam) ? pageParam : 'intro';

  let content: ReactNode;
  if (resource !== null) {
    const table = docs.tables.find((t) => t.name === resource);
    content = table ? <TableDoc table={table} project={project} /> : <EmptyState title={ApiDocsMessages.resourceNotFound(resource)} />;
  } else if (rpc !== null) {
    const fn = docs.functions.find((f) => f.name === rpc);
    content = fn ? <FunctionDoc name={fn.name} docs={docs} project={project} /> : <EmptyState title={ApiDocsMessages.rpcNotFound(rpc)} />;
  } else content = <IntroPage page={page} docs={docs} project={project} />;

  const nav = (to: string, label: ReactNode, current: boolean) => (
    <Link to={to} className={`ad-nav__item${current ? ' is-active' : ''}`} aria-current={current ? 'page' : undefined}>
      {label}
    </Link>
  );
  const plain = resource === null && rpc === null;
  return (
    <div className="ad-layout">
      <nav className="ad-nav" aria-label="API docs">
        <h3>Getting started</h3>
        {nav(apiDocsPaths.page(ref, 'intro'), 'Introduction', plain && page === 'intro')}
        {nav(apiDocsPaths.page(ref, 'auth'), 'Authentication', plain && page === 'auth')}
        {nav(apiDocsPaths.page(ref, 'users'), 'User Management', plain && page === 'users')}
        <h3>Tables and Views</h3>
        {nav(apiDocsPaths.page(ref, 'tables-intro'), 'Introduction', plain && page === 'tables-intro')}
        {docs.tables.map((t) => <span key={t.name}>{nav(apiDocsPaths.resource(ref, t.name), t.name, resource === t.name)}</span>)}
        <h3>Stored Procedures</h3>
        {nav(apiDocsPaths.page(ref, 'rpc-intro'), 'Introduction', plain && page === 'rpc-intro')}
        {[...new Set(docs.functions.map((f) => f.name))].map((name) => <span key={name}>{nav(apiDocsPaths.rpc(ref, name), name, rpc === name)}</span>)}
        <h3>More</h3>
        {nav(apiDocsPaths.page(ref, 'storage'), 'Storage', plain && page === 'storage')}
        {nav(apiDocsPaths.graphiql(ref), 'GraphiQL', false)}
      </nav>
      <article className="ad-content">{content}</article>
    </div>
  );
}

function IntroPage({ page, docs, project }: { page: DocsPage; docs: ApiDocs; project: Project }) {
  const ref = useProjectRef();
  switch (page) {
    case 'auth':
      return (
        <Section title="Authentication">
          <p>Every request carries an API key in the <code>apikey</code> header. The anon key is safe in a browser when row-level security is on for your tables; it acts as the <code>anon</code> role until a user signs in, then as <code>authenticated</code>.</p>
          <Code label="Client with the anon key" js={clientSetup(project.url, project.anonKey)} />
          <Code label="Headers" js={`apikey: ${project.anonKey}\nAuthorization: Bearer ${project.anonKey}`} />
          {project.anonKey === ANON_KEY_PLACEHOLDER && <p className="ad-note">You need additional permissions to see the project's API keys; the examples show a placeholder.</p>}
        </Section>
      );
    case 'users':
      return (
        <Section title="User Management">
          <p>Users are kept in the <code>auth.users</code> table of your database; manage them on the Authentication page.</p>
          {userExamples(project.url, project.anonKey).map((e) => <ExampleBlock key={e.title} example={e} />)}
        </Section>
      );
    case 'tables-intro':
      return (
        <Section title="Tables and Views">
          <p>Each table and view of the <code>{docs.schema}</code> schema has its own endpoint, <code>{`${project.url}/rest/v1/{table}`}</code>. Row-level security decides what each role reads and writes.</p>
          {docs.tables.length === 0 ? <p className="ad-note">{ApiDocsMessages.noTables}</p> : (
            <ul className="ad-list">
              {docs.tables.map((t) => (
                <li key={t.name}>
                  <Link to={apiDocsPaths.resource(ref, t.name)}>{t.name}</Link> <Badge>{t.kind}</Badge> {t.comment && <span className="ad-muted">{t.comment}</span>}
                </li>
              ))}
            </ul>
          )}
        </Section>
      );
    case 'rpc-intro':
      return (
        <Section title="Stored Procedures">
          <p>Functions of the <code>{docs.schema}</code> schema are called with a POST to <code>{`${project.url}/rest/v1/rpc/{function}`}</code>, their arguments by name in a JSON body.</p>
          {docs.functions.length === 0 ? <p className="ad-note">{ApiDocsMessages.noFunctions}</p> : (
            <ul className="ad-list">
              {docs.functions.map((f, i) => (
                <li key={`${f.name}-${i}`}>
                  <Link to={apiDocsPaths.rpc(ref, f.name)}>{f.name}</Link> <span className="ad-muted">({f.arguments.map((a) => `${a.name} ${a.format}`).join(', ')}) → {f.return_type}</span>
                </li>
              ))}
            </ul>
          )}
        </Section>
      );
    case 'storage':
      return (
        <Section title="Storage">
          <p>Files live in buckets. This project's storage API is <code>{`${project.url}/storage/v1`}</code>; storage policies on <code>storage.objects</code> decide who reads and writes each file.</p>
          {storageExamples(project.url, project.anonKey).map((e) => <ExampleBlock key={e.title} example={e} />)}
        </Section>
      );
    default:
      return (
        <Section title="Introduction">
          <p>Your project has a REST API generated from its database schema and a storage API. Connect with the project URL and the anon key:</p>
          <dl className="ad-facts">
            <dt>Project URL</dt>
            <dd><code data-testid="api-docs-project-url">{project.url}</code></dd>
            <dt>Anon key</dt>
            <dd><code className="ad-key">{project.anonKey}</code></dd>
          </dl>
          <Code label="Client" js={clientSetup(project.url, project.anonKey)} />
        </Section>
      );
  }
}

function TableDoc({ table, project }: { table: ApiDocs['tables'][number]; project: Project }) {
  return (
    <Section title={table.name} badge={table.kind}>
      {table.comment && <p>{table.comment}</p>}
      <table className="dash-table ad-columns" aria-label={`Columns of ${table.name}`}>
        <thead>
          <tr><th>Column</th><th>Type</th><th>Required</th><th>Description</th></tr>
        </thead>
        <tbody>
          {table.columns.map((c) => (
            <tr key={c.name}>
              <td><code>{c.name}</code>{c.primary_key && <> <Badge tone="brand">primary key</Badge></>}</td>
              <td><code>{c.format}</code></td>
              <td>{c.required ? 'Required' : 'Optional'}</td>
              <td className="ad-muted">{c.comment ?? (c.default_value ? `Default: ${c.default_value}` : '')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Code label="Client" js={clientSetup(project.url, project.anonKey)} />
      {tableExamples(project.url, project.anonKey, table).map((e) => <ExampleBlock key={e.title} example={e} anonKey={project.anonKey} />)}
    </Section>
  );
}

function FunctionDoc({ name, docs, project }: { name: string; docs: ApiDocs; project: Project }) {
  const overloads = docs.functions.filter((f) => f.name === name);
  return (
    <Section title={name} badge="function">
      {overloads.map((fn, i) => (
        <div key={i} className="ad-overload">
          {fn.comment && <p>{fn.comment}</p>}
          <p className="ad-muted">Returns <code>{fn.returns_set ? `setof ${fn.return_type}` : fn.return_type}</code> · {fn.volatility}</p>
          {fn.arguments.length > 0 && (
            <table className="dash-table ad-columns" aria-label={`Arguments of ${fn.name}`}>
              <thead><tr><th>Argument</th><th>Type</th><th>Required</th></tr></thead>
              <tbody>
                {fn.arguments.map((a) => (
                  <tr key={a.name}><td><code>{a.name}</code></td><td><code>{a.format}</code></td><td>{a.has_default ? 'Optional' : 'Required'}</td></tr>
                ))}
              </tbody>
            </table>
          )}
          <ExampleBlock example={rpcExample(project.url, project.anonKey, fn)} anonKey={project.anonKey} />
        </div>
      ))}
    </Section>
  );
}

function Section({ title, badge, children }: { title: string; badge?: string; children: ReactNode }) {
  return (
    <section className="ad-section" aria-label={title}>
      <h2>{title} {badge && <Badge>{badge}</Badge>}</h2>
      {children}
    </section>
  );
}

/** An example; with `anonKey`, its read (if it has one) can be run against the project's API. */
const ExampleBlock = ({ example, anonKey }: { example: Example; anonKey?: string }) => (
  <Code label={example.title} js={example.js} curl={example.curl} run={anonKey !== undefined && example.run ? { request: example.run, apiKey: anonKey } : undefined} />
);

function Code({ label, js, curl, run }: { label: string; js: string; curl?: string; run?: { request: RunRequest; apiKey: string } }) {
  const [lang, setLang] = useState<'js' | 'bash'>('js');
  // Every example has the hook (hooks are unconditional); only one with `run` ever triggers it.
  const [trigger, ran] = useLazyRunApiDocsExampleQuery();
  const toast = useToast();
  const text = lang === 'bash' && curl ? curl : js;
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => toast('success', `Copied ${label.toLowerCase()} to the clipboard`),
      (e: Error) => toast('error', `Failed to copy: ${e.message}`),
    );
  return (
    <figure className="ad-code" aria-label={label}>
      <figcaption>
        <span>{label}</span>
        {curl && (
          <span className="ad-code__langs" role="group" aria-label={`${label} language`}>
            <button type="button" className={lang === 'js' ? 'is-active' : ''} onClick={() => setLang('js')}>JavaScript</button>
            <button type="button" className={lang === 'bash' ? 'is-active' : ''} onClick={() => setLang('bash')}>Bash</button>
          </span>
        )}
        {run && (
          <Button
            size="sm"
            onClick={() => trigger(run)}
            loading={ran.isFetching}
            disabledReason={run.apiKey === ANON_KEY_PLACEHOLDER ? 'Running an example needs the API keys, which your role may not read' : undefined}
          >
            Run
          </Button>
        )}
        <Button size="sm" variant="ghost" onClick={copy}>Copy</Button>
      </figcaption>
      <pre><code>{text}</code></pre>
      {run && !ran.isUninitialized && !ran.isFetching && <RunAnswer label={label} answer={ran.isError ? undefined : ran.data} error={ran.error} />}
    </figure>
  );
}

/** What the project's API answered to a run example: its status and body, or why there was no answer. */
function RunAnswer({ label, answer, error }: { label: string; answer?: RunExampleAnswer; error?: unknown }) {
  const ok = answer !== undefined && answer.status >= 200 && answer.status < 300;
  return (
    <div className="ad-run" role="region" aria-label={`Answer of ${label.toLowerCase()}`}>
      {answer ? (
        <>
          <Badge tone={ok ? 'success' : 'danger'}>{`HTTP ${answer.status}`}</Badge>
          <pre className="ad-run__body"><code>{answer.json ? JSON.stringify(answer.body, null, 2) : String(answer.body)}</code></pre>
        </>
      ) : (
        <p className="dash-field__error" role="alert">{`Failed to run the example: ${errorMessage(error)}`}</p>
      )}
    </div>
  );
}

/** Generate types: postgres-meta's TypeScript types of the public schema, to copy or download. */
function TypesDialog({ onClose }: { onClose: () => void }) {
  const ref = useProjectRef();
  const toast = useToast();
  const [schemas, setSchemas] = useState('public');
  const [generate, { data, error, isFetching }] = useLazyGeneratedTypesQuery();
  const types = data?.types;
  const download = () => {
    const url = URL.createObjectURL(new Blob([types ?? ''], { type: 'text/typescript' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: 'database.types.ts' });
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Modal
      title="Generate types"
      width={820}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Close</Button>
          <Button disabled={!types} onClick={() => navigator.clipboard.writeText(types ?? '').then(() => toast('success', ApiDocsMessages.typesCopied), (e: Error) => toast('error', ApiDocsMessages.typesFailed(e.message)))}>
            Copy
          </Button>
          <Button variant="primary" disabled={!types} onClick={download}>
            Download
          </Button>
        </>
      }
    >
      <form
        className="ad-types__form"
        onSubmit={(e) => {
          e.preventDefault();
          generate({ ref, included_schemas: schemas.split(',').map((s) => s.trim()).filter(Boolean).join(',') || 'public' });
        }}
      >
        <label>
          Schemas <input className="dash-input" value={schemas} onChange={(e) => setSchemas(e.target.value)} aria-label="Schemas (comma-separated)" />
        </label>
        <Button type="submit" variant="primary" loading={isFetching}>
          Generate
        </Button>
      </form>
      {error && <p className="dash-field__error" role="alert">{ApiDocsMessages.typesFailed(errorMessage(error))}</p>}
      {types && <pre className="ad-types" data-testid="generated-types"><code>{types}</code></pre>}
    </Modal>
  );
}
