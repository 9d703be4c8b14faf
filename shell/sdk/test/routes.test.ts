import { platformRoutes, storageRoutes, tableEditorRoutes, type Bucket, type RouteReply } from '@dash/contracts';
import { baseApi, platformApi } from '../src/api';
import { routeMutation, routeParts, routeQuery, type RouteArg } from '../src/routes';
import { createStore } from '../src/store';
import { waitFor } from '@testing-library/react';
import { mockFetch } from '../testing';

/** Compile-time only: the argument must have exactly type T. */
const sameType = <T>(value: T) => value;

// The endpoints under test, with a tag type of their own, as an area injects them.
const bucketsApi = baseApi.enhanceEndpoints({ addTagTypes: ['TestBuckets'] }).injectEndpoints({
  endpoints: (build) => ({
    testBuckets: routeQuery(build, storageRoutes.listBuckets, { providesTags: (_r, _e, { ref }) => [{ type: 'TestBuckets', id: ref }] }),
    testBucketIds: routeQuery(build, storageRoutes.listBuckets, { transformResponse: (reply) => reply.map((b) => b.id) }),
    testUpdateBucket: routeMutation(build, storageRoutes.updateBucket, { invalidatesTags: (_r, _e, { ref }) => [{ type: 'TestBuckets', id: ref }] }),
    testColumns: routeQuery(build, tableEditorRoutes.listColumns, {
      parts: ({ ref, tableId }: { ref: string; tableId: number }) => ({ params: { ref }, query: { table_id: tableId } }),
    }),
  }),
  overrideExisting: 'throw',
});

const bucket = (id: string): Bucket =>
  ({ id, name: id, owner: '', public: false, file_size_limit: null, allowed_mime_types: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' }) as Bucket;

describe('routeParts', () => {
  it('sends the params to the path, the query fields to the query string and the rest as the body', () => {
    expect(routeParts(storageRoutes.updateBucket, { ref: 'default', id: 'photos', public: true })).toEqual({
      params: { ref: 'default', id: 'photos' },
      query: undefined,
      body: { public: true },
    });
    expect(routeParts(tableEditorRoutes.deleteTable, { ref: 'default', id: 7, cascade: true })).toEqual({
      params: { ref: 'default', id: 7 },
      query: { cascade: true },
    });
  });

  it('takes no argument at all for a route without params, query or body', () => {
    expect(routeParts(platformRoutes.session, undefined)).toEqual({ params: undefined, query: undefined });
  });
});

describe('routeQuery and routeMutation', () => {
  it('type the argument from the route schemas and the result from its reply', () => {
    sameType<RouteArg<typeof storageRoutes.updateBucket>>({ ref: 'default', id: 'photos', public: true });
    // @ts-expect-error the path param is required
    sameType<RouteArg<typeof storageRoutes.updateBucket>>({ ref: 'default', public: true });
    // @ts-expect-error a body field has its schema's type
    sameType<RouteArg<typeof storageRoutes.updateBucket>>({ ref: 'default', id: 'photos', public: 'yes' });
    sameType<RouteArg<typeof platformRoutes.session>>(undefined);
    // Only optional query fields: the argument may be left out.
    sameType<RouteArg<typeof platformRoutes.listProjects>>(undefined);

    sameType<Parameters<typeof bucketsApi.endpoints.testBuckets.initiate>[0]>({ ref: 'default' });
    // @ts-expect-error not any: the route's params
    sameType<Parameters<typeof bucketsApi.endpoints.testBuckets.initiate>[0]>({ ref: 1 });
    type Result<E> = E extends { Types: { ResultType: infer R } } ? R : never;
    sameType<Result<typeof bucketsApi.endpoints.testBuckets>>([] as RouteReply<typeof storageRoutes.listBuckets>);
    // @ts-expect-error not any: the route's reply
    sameType<Result<typeof bucketsApi.endpoints.testBuckets>>(['a']);
    sameType<Result<typeof bucketsApi.endpoints.testBucketIds>>([] as string[]);
    // @ts-expect-error not any: the transformed result
    sameType<Result<typeof bucketsApi.endpoints.testBucketIds>>([1]);
    sameType<Parameters<typeof bucketsApi.endpoints.testColumns.initiate>[0]>({ ref: 'default', tableId: 3 });
    // @ts-expect-error `parts` sets the argument's type
    sameType<Parameters<typeof bucketsApi.endpoints.testColumns.initiate>[0]>({ ref: 'default' });
  });

  it('build the url, method, query and body of the route', async () => {
    const fetched = mockFetch({
      'PATCH /api/storage/default/buckets/photos': { body: bucket('photos') },
      'GET /api/pg-meta/default/columns': { body: [] },
    });
    const store = createStore();
    await store.dispatch(bucketsApi.endpoints.testUpdateBucket.initiate({ ref: 'default', id: 'photos', public: true }));
    await store.dispatch(bucketsApi.endpoints.testColumns.initiate({ ref: 'default', tableId: 3 }, { subscribe: false }));

    const [update, columns] = fetched.calls;
    expect(update!.method).toBe('PATCH');
    expect(new URL(update!.url).pathname).toBe('/api/storage/default/buckets/photos');
    expect(await update!.json()).toEqual({ public: true });
    expect(columns!.method).toBe('GET');
    expect(new URL(columns!.url).pathname + new URL(columns!.url).search).toBe('/api/pg-meta/default/columns?table_id=3');
  });

  it('apply transformResponse to the reply', async () => {
    mockFetch({ 'GET /api/storage/default/buckets': { body: [bucket('a'), bucket('b')] } });
    const store = createStore();
    const result = await store.dispatch(bucketsApi.endpoints.testBucketIds.initiate({ ref: 'default' }, { subscribe: false }));
    expect(result.data).toEqual(['a', 'b']);
  });
});

describe('tag types added by an injection', () => {
  it('are provided by its queries and invalidated by its mutations', async () => {
    let lists = 0;
    let otherLists = 0;
    mockFetch({
      'GET /api/storage/default/buckets': () => ({ body: [bucket(`b${++lists}`)] }),
      'GET /api/storage/other/buckets': () => ({ body: [bucket(`o${++otherLists}`)] }),
      'PATCH /api/storage/default/buckets/b1': { body: bucket('b1') },
    });
    const store = createStore();
    const subscription = store.dispatch(bucketsApi.endpoints.testBuckets.initiate({ ref: 'default' }));
    const otherProject = store.dispatch(bucketsApi.endpoints.testBuckets.initiate({ ref: 'other' }));
    await subscription;
    await otherProject;
    expect([lists, otherLists]).toEqual([1, 1]);

    await store.dispatch(bucketsApi.endpoints.testUpdateBucket.initiate({ ref: 'default', id: 'b1', public: true }));
    // The list of the project whose tag was invalidated is fetched again; the other project's is not.
    await waitFor(() => expect(lists).toBe(2));
    const cached = await store.dispatch(bucketsApi.endpoints.testBuckets.initiate({ ref: 'default' }, { subscribe: false }));
    expect(cached.data?.[0]?.id).toBe('b2');
    expect([lists, otherLists]).toEqual([2, 1]);
    subscription.unsubscribe();
    otherProject.unsubscribe();
  });
});

describe('overrideExisting: throw', () => {
  it('refuses a second definition of an endpoint name already on the page', () => {
    expect(() =>
      baseApi.injectEndpoints({
        endpoints: (build) => ({ projectPermissions: routeQuery(build, platformRoutes.projectPermissions) }),
        overrideExisting: 'throw',
      }),
    ).toThrow(/projectPermissions/);
    // The first definition is the one that stays.
    expect(platformApi.endpoints.projectPermissions).toBeDefined();
  });
});
