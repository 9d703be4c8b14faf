import { waitUntil } from '../src/testing';

describe('waitUntil', () => {
  it('resolves as soon as the condition holds, sync or async', async () => {
    let calls = 0;
    await waitUntil(() => ++calls === 3, 'the third check');
    expect(calls).toBe(3);
    let asyncCalls = 0;
    await waitUntil(async () => ++asyncCalls === 2, 'the second check');
    expect(asyncCalls).toBe(2);
  });

  it('fails naming what it waited for once the time is up', async () => {
    const started = Date.now();
    await expect(waitUntil(() => false, 'the moon turns blue', 60)).rejects.toThrow('Timed out after 60 ms waiting until the moon turns blue');
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
  });
});
