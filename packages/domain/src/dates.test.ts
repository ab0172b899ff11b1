import { describe, expect, it } from 'vitest';
import { calendarDay, formatDate } from './dates.js';

describe('calendarDay: the day a moment falls on in a time zone', () => {
  it('is the next day in Belgrade late in the UTC evening, the same day in UTC', () => {
    const lateEvening = new Date('2026-11-23T23:30:00Z');
    expect(calendarDay(lateEvening, 'Europe/Belgrade')).toBe('2026-11-24');
    expect(calendarDay(lateEvening, 'UTC')).toBe('2026-11-23');
  });

  it('follows summer time (UTC+2 in July)', () => {
    expect(calendarDay(new Date('2026-07-01T21:59:00Z'), 'Europe/Belgrade')).toBe('2026-07-01');
    expect(calendarDay(new Date('2026-07-01T22:00:00Z'), 'Europe/Belgrade')).toBe('2026-07-02');
  });

  it('refuses an unknown zone', () => {
    expect(() => calendarDay(new Date(), 'Evropa/Nigde')).toThrow();
  });
});

describe('formatDate: DD.MM.YYYY in any time zone of the viewer', () => {
  it('shows a stored date as its own day, also west of Greenwich', () => {
    const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
    const zone = env.TZ;
    env.TZ = 'America/New_York';
    try {
      expect(formatDate('2026-03-01')).toBe('01.03.2026');
      expect(formatDate('2026-03-01T12:00:00Z')).toBe('01.03.2026');
      expect(formatDate('2026-03-01T02:00:00Z')).toBe('28.02.2026');
    } finally {
      if (zone === undefined) delete env.TZ;
      else env.TZ = zone;
    }
  });

  it('is empty for nothing and for what is not a date', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('nije datum')).toBe('');
  });
});
