import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import type { ExecutionResult } from 'graphql';
import { errorMessage, usePermission, useProjectRef } from '@dash/shell-sdk';
import { ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { graphqlEndpointPath, Permission } from '@dash/contracts';
import { useApiDocsKeysQuery } from '../api/api-docs';
import { useGraphiqlAuthUsersQuery, useMintUserTokenMutation } from '../api/graphiql';
import './graphiql-page.css';

const GraphiqlEditor = lazy(() => import('./GraphiqlEditor'));

/** Who GraphiQL's requests act as: the anon key, the service_role key, or one of the project's auth users. */
export type RunAs = { kind: 'anon' } | { kind: 'service_role' } | { kind: 'user'; userId: string | null; email: string | null };

/** A GraphQL request as GraphiQL hands it to its fetcher. */
export interface GraphqlRequest {
  query: string;
  variables?: unknown;
  operationName?: string | null;
}

/**
 * GraphiQL's fetcher: POSTs the request to `url` with the headers `headers` resolves at that moment (a
 * user's token is minted on the first run and again when it is about to expire), then those of GraphiQL's
 * Headers tab, which win. A reply that is not JSON (a proxy's error page) becomes an error GraphiQL shows.
 */
export function graphqlFetcher(url: string, headers: () => Promise<Record<string, string>>) {
  return async (request: GraphqlRequest, options?: { headers?: Record<string, unknown> }): Promise<ExecutionResult> => {
    const typed = Object.entries(options?.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(await headers()), ...Object.fromEntries(typed) },
      body: JSON.stringify(request),
    });
    if (!response.headers.get('content-type')?.includes('json')) throw new Error(`The GraphQL endpoint answered ${response.status} ${response.statusText}`);
    return (await response.json()) as ExecutionResult;
  };
}

/** A minted user token is used until this close to its expiry, then minted again. */
const TOKEN_RENEW_MARGIN_MS = 60_000;

const keyHeaders = (apikey: string, bearer = apikey) => ({ apikey, authorization: `Bearer ${bearer}` });

/**
 * `/project/:ref/api/graphiql`: GraphiQL on the project's GraphQL endpoint, its queries run as the role the
 * picker chooses, so grants and row-level security apply as they do for apps. The keys (and user tokens)
 * are for members who may read the API keys; others send no key, which the endpoint refuses (401), as it
 * refuses any app without one: the page says so instead of leaving them to find out.
 */
export function GraphiqlPage() {
  const ref = useProjectRef();
  const { can: canUseKeys, isLoading: permissionLoading } = usePermission(Permission.TenantSqlAdminWrite);
  const keys = useApiDocsKeysQuery({ ref }, { skip: !canUseKeys });
  const [runAs, setRunAs] = useState<RunAs>({ kind: 'anon' });
  const [mintUserToken] = useMintUserTokenMutation();
  const tokens = useRef(new Map<string, { accessToken: string; expiresAtMs: number }>());

  const anonKey = keys.data?.anon;
  const serviceKey = keys.data?.service_role;
  const fetcher = useMemo(
    () =>
      // Absolute: the page's origin is the gateway's, which serves the project's APIs under /p/.
      graphqlFetcher(new URL(graphqlEndpointPath(ref), window.location.origin).toString(), async () => {
        if (runAs.kind === 'anon') return anonKey ? keyHeaders(anonKey) : {};
        if (!anonKey || !serviceKey) throw new Error('Running as another role than anon needs the project\'s API keys');
        if (runAs.kind === 'service_role') return keyHeaders(serviceKey);
        if (!runAs.userId) throw new Error('Choose the user to run queries as');
        let token = tokens.current.get(runAs.userId);
        if (!token || token.expiresAtMs - Date.now() < TOKEN_RENEW_MARGIN_MS) {
          const minted = await mintUserToken({ ref, userId: runAs.userId })
            .unwrap()
            .catch((error: unknown) => {
              throw new Error(`Could not get a token for the user: ${errorMessage(error)}`);
            });
          token = { accessToken: minted.accessToken, expiresAtMs: Date.parse(minted.expiresAt) };
          tokens.current.set(runAs.userId, token);
        }
        return keyHeaders(anonKey, token.accessToken);
      }),
    [ref, runAs, anonKey, serviceKey, mintUserToken],
  );

  let body;
  if (permissionLoading || (canUseKeys && keys.isLoading)) body = <Spinner label="Loading API keys" />;
  else if (canUseKeys && keys.error) body = <ErrorPanel title={`Failed to load the API keys: ${errorMessage(keys.error)}`} onRetry={() => keys.refetch()} retrying={keys.isFetching} />;
  else
    body = (
      <>
        <RunAsPicker value={runAs} onChange={setRunAs} canUseKeys={canUseKeys} />
        <div className="gq-editor">
          <Suspense fallback={<Spinner label="Loading GraphiQL" />}>
            <GraphiqlEditor fetcher={fetcher} />
          </Suspense>
        </div>
      </>
    );
  return (
    <div className="gq-page">
      <PageHeader title="GraphiQL" description={`Explore and query the project's GraphQL API at ${graphqlEndpointPath(ref)}.`} />
      {body}
    </div>
  );
}

function runAsLabel(runAs: RunAs): string {
  if (runAs.kind === 'anon') return 'anon: what the anon key may see';
  if (runAs.kind === 'service_role') return 'service_role: bypasses row-level security';
  return runAs.userId ? `authenticated as ${runAs.email ?? runAs.userId}` : 'authenticated: choose a user';
}

/** Chooses who GraphiQL's queries run as. Keys and user tokens are for members who may read the API keys. */
export function RunAsPicker({ value, onChange, canUseKeys }: { value: RunAs; onChange: (runAs: RunAs) => void; canUseKeys: boolean }) {
  const ref = useProjectRef();
  const [search, setSearch] = useState('');
  const users = useGraphiqlAuthUsersQuery({ ref, search: search.trim() || undefined, limit: 50 }, { skip: value.kind !== 'user' });
  const choices: { kind: RunAs['kind']; label: string }[] = [
    { kind: 'anon', label: 'anon' },
    { kind: 'service_role', label: 'service_role' },
    { kind: 'user', label: 'A user' },
  ];
  return (
    <section className="gq-picker" aria-label="Run queries as">
      <fieldset className="gq-picker__roles">
        <legend>Run queries as</legend>
        {choices.map((choice) => (
          <label key={choice.kind} className="dash-checkbox">
            <input
              type="radio"
              name="gq-run-as"
              value={choice.kind}
              checked={value.kind === choice.kind}
              disabled={choice.kind !== 'anon' && !canUseKeys}
              onChange={() => onChange(choice.kind === 'user' ? { kind: 'user', userId: null, email: null } : { kind: choice.kind })}
            />
            {choice.label}
          </label>
        ))}
      </fieldset>
      {value.kind === 'user' && (
        <div className="gq-picker__user">
          <label className="dash-field">
            <span>Find a user</span>
            <input className="dash-input" type="search" value={search} placeholder="Email or user id" onChange={(e) => setSearch(e.target.value)} />
          </label>
          <label className="dash-field">
            <span>User</span>
            <select
              className="dash-select"
              value={value.userId ?? ''}
              onChange={(e) => {
                const user = users.data?.users.find((u) => u.id === e.target.value);
                onChange({ kind: 'user', userId: user?.id ?? null, email: user?.email ?? null });
              }}
            >
              <option value="">{users.isLoading ? 'Loading users…' : users.data?.users.length === 0 ? 'No users found' : 'Choose a user'}</option>
              {value.userId && !users.data?.users.some((u) => u.id === value.userId) && <option value={value.userId}>{value.email ?? value.userId}</option>}
              {users.data?.users.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.email ?? user.phone ?? user.id}
                </option>
              ))}
            </select>
          </label>
          {users.isError && (
            <p className="gq-error" role="alert">
              Failed to load the users: {errorMessage(users.error)}
            </p>
          )}
        </div>
      )}
      <p className="gq-picker__status" role="status">
        Queries run as {runAsLabel(value)}
        {!canUseKeys && '. Without the API keys, which your role in this project cannot read, the endpoint refuses every query (401): ask a member who may read them.'}
      </p>
    </section>
  );
}
