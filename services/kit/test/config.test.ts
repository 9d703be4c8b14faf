import { envPort, requireEnv } from '../src/config';

describe('config', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('requireEnv returns a set variable and names a missing one', () => {
    process.env.KIT_TEST_VALUE = 'x';
    expect(requireEnv('KIT_TEST_VALUE')).toBe('x');
    delete process.env.KIT_TEST_MISSING;
    expect(() => requireEnv('KIT_TEST_MISSING')).toThrow('Environment variable KIT_TEST_MISSING is required');
  });

  it('envPort reads a TCP port or falls back', () => {
    delete process.env.KIT_TEST_PORT;
    expect(envPort('KIT_TEST_PORT', 8080)).toBe(8080);
    process.env.KIT_TEST_PORT = '9000';
    expect(envPort('KIT_TEST_PORT', 8080)).toBe(9000);
    for (const bad of ['0', '70000', 'abc', '80.5']) {
      process.env.KIT_TEST_PORT = bad;
      expect(() => envPort('KIT_TEST_PORT', 8080)).toThrow(`KIT_TEST_PORT must be a TCP port, got ${bad}`);
    }
  });
});
