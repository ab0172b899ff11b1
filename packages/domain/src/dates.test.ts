import { describe, expect, it } from 'vitest';
import { calendarDay } from './dates.js';

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
