export default async function teardown() {
  await globalThis.__DASH_PG__?.stop();
}
