import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, deadlineColour } from './colours.js';

const today = new Date('2026-05-21T10:00:00Z');

describe('deadline colours (spec 2 §4)', () => {
  it('in progress: blue with more than 10 % left, orange under it, red past the deadline', () => {
    // 100 days from 2026-03-01 to 2026-06-09.
    const base = { inProgress: true, finished: false, start: '2026-03-01', due: '2026-06-09' };
    expect(deadlineColour(base, today)).toBe('blue'); // 19 of 100 days left
    expect(deadlineColour({ ...base, due: '2026-05-30' }, today)).toBe('orange'); // 9 of 90 days left = 10 %: orange
    expect(deadlineColour({ ...base, due: '2026-05-29' }, today)).toBe('orange'); // 8 of 89
    expect(deadlineColour({ ...base, due: '2026-05-21' }, today)).toBe('orange'); // the last day: 0 left
    expect(deadlineColour({ ...base, due: '2026-05-20' }, today)).toBe('red');
  });

  it('blue needs more than 10 % left; exactly 10 % is orange', () => {
    expect(deadlineColour({ inProgress: true, finished: false, start: '2026-05-01', due: '2026-05-31' }, new Date('2026-05-27'))).toBe(
      'blue',
    ); // 4 of 30
    expect(deadlineColour({ inProgress: true, finished: false, start: '2026-05-01', due: '2026-05-31' }, new Date('2026-05-28'))).toBe(
      'orange',
    ); // 3 of 30
  });

  it('finished: green on time, green-red striped late', () => {
    const done = { inProgress: false, finished: true, start: '2026-03-01', due: '2026-04-01' };
    expect(deadlineColour({ ...done, finishedAt: '2026-04-01' }, today)).toBe('green');
    expect(deadlineColour({ ...done, finishedAt: '2026-04-02' }, today)).toBe('greenRed');
  });

  it('floating deadline (klizno): blue in progress, green finished; white when not started', () => {
    expect(deadlineColour({ inProgress: true, finished: false, start: '2026-01-01', due: null, floating: true }, today)).toBe('blue');
    expect(
      deadlineColour(
        { inProgress: false, finished: true, start: '2026-01-01', due: null, floating: true, finishedAt: '2027-01-01' },
        today,
      ),
    ).toBe('green');
    expect(deadlineColour({ inProgress: false, finished: false, start: null, due: '2026-06-01' }, today)).toBe('white');
  });

  it('adds days for a contract due date', () => {
    expect(addDays('2026-01-31', 30)).toBe('2026-03-02');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('counts whole days between two dates (a late activity says by how many)', () => {
    expect(daysBetween('2026-02-27', '2026-03-02')).toBe(3);
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysBetween('2026-03-02', '2026-02-27')).toBe(-3);
    expect(daysBetween(null, '2026-03-02')).toBeNull();
  });
});
