import { cachedPerProject } from '../src/service-calls';

describe('cachedPerProject', () => {
  it('reads each project once per period, and asks again after a failure or once the period is over', async () => {
    const asked: string[] = [];
    let fail = true;
    let now = 1_000;
    const spy = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const settings = cachedPerProject(500, async (ref) => {
        asked.push(ref);
        if (ref === 'b' && fail) throw new Error('platform down');
        return { ref };
      });
      expect(await settings('a')).toEqual({ ref: 'a' });
      expect(await settings('a')).toEqual({ ref: 'a' });
      await expect(settings('b')).rejects.toThrow('platform down');
      fail = false;
      expect(await settings('b')).toEqual({ ref: 'b' });
      expect(asked).toEqual(['a', 'b', 'b']);
      now += 500;
      await settings('a');
      expect(asked).toEqual(['a', 'b', 'b', 'a']);
    } finally {
      spy.mockRestore();
    }
  });
});
