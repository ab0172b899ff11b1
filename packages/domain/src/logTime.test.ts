import { describe, expect, it } from 'vitest';
import { formatLogTime } from './logTime.js';

describe('formatLogTime', () => {
  it('shows HH:mm:ss DD-MM-YYYY in local time', () => {
    expect(formatLogTime(new Date(2025, 2, 7, 9, 5, 3))).toBe('09:05:03 07-03-2025');
    expect(formatLogTime(new Date(2025, 11, 31, 23, 59, 59).toISOString())).toBe('23:59:59 31-12-2025');
  });
  it('shows nothing for a missing or broken value', () => {
    expect(formatLogTime(null)).toBe('');
    expect(formatLogTime('nije datum')).toBe('');
  });
});
