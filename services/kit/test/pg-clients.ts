import pg from 'pg';

/** Runs `work` with a client logged in with `url`. */
export async function as<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** The SQLSTATE a statement fails with (undefined when it succeeds). */
export async function failure(url: string, text: string): Promise<string | undefined> {
  return as(url, async (c) => {
    try {
      await c.query(text);
      return undefined;
    } catch (error) {
      return (error as { code?: string }).code;
    }
  });
}
