import { formatBytes, toBytes, wholeUnits } from '../src/sizes';

describe('size units (each step 1024)', () => {
  it('converts units to bytes', () => {
    expect(toBytes(3, 'bytes')).toBe(3);
    expect(toBytes(2, 'KB')).toBe(2048);
    expect(toBytes(2, 'MB')).toBe(2097152);
    expect(toBytes(1, 'GB')).toBe(1073741824);
  });

  it('formats a byte count in the largest unit it reaches, with at most two decimals', () => {
    expect(formatBytes(2097152)).toBe('2 MB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12)).toBe('12 bytes');
    expect(formatBytes(7885291)).toBe('7.52 MB');
    // GB is the largest unit the product names.
    expect(formatBytes(2 * 1024 ** 4)).toBe('2048 GB');
  });

  it('keeps a limit a whole number of the largest unit that divides it', () => {
    expect(wholeUnits(52428800)).toEqual({ value: 50, unit: 'MB' });
    expect(wholeUnits(5368709120)).toEqual({ value: 5, unit: 'GB' });
    expect(wholeUnits(1536)).toEqual({ value: 1536, unit: 'bytes' });
    expect(wholeUnits(2048)).toEqual({ value: 2, unit: 'KB' });
    expect(wholeUnits(0)).toEqual({ value: 0, unit: 'bytes' });
  });
});
