import { escapeLike } from '@dash/service-kit';
import { listDelimitedQuery, listFlatQuery, listFolderQuery, moveFolderQuery, startsWithPattern, type FolderListOptions, type ListV2Page } from '../src/sql/objects';
import { setupProject, type Project } from './helpers';
import { createBucket } from './object-fixtures';

/* The statement builders of `sql/objects.ts`: pure text plus parameters, run against a real database. */

const options = (over: Partial<FolderListOptions> = {}): FolderListOptions => ({
  limit: 100,
  offset: 0,
  search: '',
  sortBy: { column: 'name', order: 'asc' },
  ...over,
});

const byName = (after: string | null, limit: number): ListV2Page => ({ sort: { column: 'name', order: 'asc' }, after: after === null ? null : { key: after }, limit });

describe('pure builders', () => {
  it('escapes LIKE wildcards so a prefix matches literally', () => {
    expect(startsWithPattern('a_b/')).toBe('a\\_b/%');
  });

  it('keeps everything the user typed out of the statement text', () => {
    const hostile = `x'; drop table storage.objects; --/`;
    const query = listFolderQuery(hostile, hostile, options({ search: hostile }));
    expect(query.text).not.toContain('drop table');
    expect(query.values).toEqual([hostile, `${escapeLike(hostile)}%`, hostile, `${escapeLike(hostile)}%`, 100, 0]);
    for (const q of [listFlatQuery(hostile, hostile, byName(hostile, 10)), listDelimitedQuery(hostile, hostile, byName(hostile, 10)), moveFolderQuery(hostile, hostile, hostile)]) {
      expect(q.text).not.toContain('drop table');
      expect(q.values).toContain(hostile);
    }
  });

  it('only splices sort columns and orders from closed lists', () => {
    const sneaky = { column: 'name; drop table x' as 'name', order: 'desc; --' as 'desc' };
    const query = listFolderQuery('b', '', options({ sortBy: sneaky }));
    expect(query.text).not.toContain('drop table');
    expect(query.text).toContain('name collate "C" asc');
    expect(listFolderQuery('b', '', options({ sortBy: { column: 'updated_at', order: 'desc' } })).text).toContain('updated_at desc, name collate "C" asc');
    const v2: ListV2Page = { sort: { column: 'created_at; drop table x' as 'created_at', order: 'desc' }, after: { key: 'k', date: '2026-01-01T00:00:00.000Z' }, limit: 5 };
    for (const q of [listFlatQuery('b', '', v2), listDelimitedQuery('b', '', v2)]) {
      expect(q.text).not.toContain('drop table');
      expect(q.text).toContain(`date_trunc('milliseconds', "created_at")`);
      expect(q.text).toContain('order by sort_date desc, key collate "C" desc');
      expect(q.values).toEqual(expect.arrayContaining(['k', '2026-01-01T00:00:00.000Z']));
    }
  });
});

describe('against the database', () => {
  let p: Project;
  const run = async (query: { text: string; values: unknown[] }) => (await p.sql(query.text, query.values)).rows;

  beforeAll(async () => {
    p = await setupProject();
    await createBucket(p, 'big');
    await createBucket(p, 'other');
    // 10,000 files in one folder, 20,000 more in a sibling folder, and a few in another bucket.
    await p.sql(`insert into storage.objects (bucket_id, name, version, metadata)
      select 'big', 'photos/img_' || lpad(i::text, 5, '0') || '.jpg', 'v', jsonb_build_object('size', i, 'mimetype', 'image/jpeg')
      from generate_series(1, 10000) i`);
    await p.sql(`insert into storage.objects (bucket_id, name, version, metadata)
      select 'big', 'archive/' || (i % 50) || '/file_' || i || '.bin', 'v', '{}'::jsonb from generate_series(1, 20000) i`);
    await p.sql(`insert into storage.objects (bucket_id, name, version) values
      ('big', 'photos/2024/a.jpg', 'v'), ('big', 'photos/2023/b.jpg', 'v'), ('big', 'photos_/c.jpg', 'v'), ('big', 'photosX.jpg', 'v'),
      ('other', 'photos/img_00001.jpg', 'v')`);
    await p.sql('analyze storage.objects');
  });

  afterAll(async () => {
    await p.close();
  });

  it('lists a 10,000-file folder a page at a time, quickly', async () => {
    const started = performance.now();
    const page = await run(listFolderQuery('big', 'photos/', options({ limit: 200 })));
    const elapsed = performance.now() - started;
    expect(page).toHaveLength(200);
    expect(page.slice(0, 3).map((row) => row.name)).toEqual(['2023', '2024', 'img_00001.jpg']);
    expect(page[0]).toMatchObject({ id: null, metadata: null });
    expect(page[2]).toMatchObject({ id: expect.any(String), metadata: { size: 1 } });
    expect(elapsed).toBeLessThan(500);

    const last = await run(listFolderQuery('big', 'photos/', options({ limit: 200, offset: 9_900 })));
    expect(last.map((row) => row.name).slice(-2)).toEqual(['img_09999.jpg', 'img_10000.jpg']);
    expect(last).toHaveLength(102);

  });

  it('reaches a small folder beside big ones through the prefix index', async () => {
    const query = listFolderQuery('big', 'photos/2024/', options());
    const plan = (await p.sql(`explain ${query.text}`, query.values)).rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index.*objects_bucket_prefix/);
    expect((await run(query)).map((row) => row.name)).toEqual(['a.jpg']);
  });

  it('lists the root with folders first, and matches prefixes and searches literally', async () => {
    expect((await run(listFolderQuery('big', '', options()))).map((row) => row.name)).toEqual(['archive', 'photos', 'photos_', 'photosX.jpg']);
    expect((await run(listFolderQuery('big', '', options({ search: 'PHOTOS_' })))).map((row) => row.name)).toEqual(['photos_']);
    expect((await run(listFolderQuery('big', 'photos_/', options()))).map((row) => row.name)).toEqual(['c.jpg']);
    expect(await run(listFolderQuery('big', 'photos/', options({ search: 'img_1' })))).toEqual([expect.objectContaining({ name: 'img_10000.jpg' })]);
    expect(await run(listFolderQuery('big', 'archive/', options({ search: '%' })))).toEqual([]);
    expect((await run(listFolderQuery('big', 'archive/', options({ limit: 3 })))).map((row) => row.name)).toEqual(['0', '1', '10']);
  });

  it('sorts files by the chosen column, folders first and by name', async () => {
    await p.sql(`update storage.objects set updated_at = now() + interval '1 day' where bucket_id = 'big' and name = 'photos/img_00500.jpg'`);
    const byUpdate = await run(listFolderQuery('big', 'photos/', options({ limit: 3, sortBy: { column: 'updated_at', order: 'desc' } })));
    expect(byUpdate.map((row) => row.name)).toEqual(['2023', '2024', 'img_00500.jpg']);
    const byNameDesc = await run(listFolderQuery('big', 'photos/', options({ limit: 3, sortBy: { column: 'name', order: 'desc' } })));
    expect(byNameDesc.map((row) => row.name)).toEqual(['2024', '2023', 'img_10000.jpg']);
  });

  it('pages flat and delimited listings after a cursor', async () => {
    const flat = await run(listFlatQuery('big', 'photos/img_0999', byName('photos/img_09997.jpg', 2)));
    expect(flat.map((row) => row.key)).toEqual(['photos/img_09998.jpg', 'photos/img_09999.jpg']);
    const delimited = await run(listDelimitedQuery('big', 'photos', byName(null, 10)));
    expect(delimited.map((row) => [row.key, row.is_folder])).toEqual([
      ['photos/', true],
      ['photosX.jpg', false],
      ['photos_/', true],
    ]);
  });

  it('moves a folder by rewriting the prefix of every name under it, and only those', async () => {
    const moved = await run(moveFolderQuery('big', 'photos_/', 'renamed/'));
    expect(moved).toHaveLength(1);
    const { rows } = await p.sql(`select name from storage.objects where bucket_id = 'big' and name like 'renamed/%' or name like 'photos_/%'`);
    expect(rows.map((row) => row.name)).toEqual(['renamed/c.jpg']);
  });
});
