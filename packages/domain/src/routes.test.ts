import { describe, expect, it } from 'vitest';
import { APP_ROUTES, appPath, canOpen, landingPath, nameSegment, rolesFor } from './routes.js';

describe('route table', () => {
  it('has the role lists of spec 1 §2.2', () => {
    expect(rolesFor('notices').sort()).toEqual(['Gost', 'Rukovodilac', 'Zaposleni']);
    expect(rolesFor('clusterNew')).toEqual(['Admin']);
    expect(rolesFor('myClusters').sort()).toEqual(['Rukovodilac', 'Zaposleni']);
    expect(rolesFor('report').sort()).toEqual(['Rukovodilac', 'Zaposleni']);
    expect(rolesFor('activity').sort()).toEqual(['Admin', 'Rukovodilac', 'Zaposleni']);
    expect(rolesFor('contractsIzv').sort()).toEqual(['Admin', 'Zaposleni']);
  });

  it('never lets a guest open anything but the notices page', () => {
    const open = APP_ROUTES.filter((r) => canOpen('Gost', r.key)).map((r) => r.key);
    expect(open).toEqual(['notices']);
  });

  it('compares roles case-insensitively', () => {
    expect(canOpen('admin', 'codebooks')).toBe(true);
    expect(canOpen('ZAPOSLENI', 'codebooks')).toBe(false);
    expect(canOpen(undefined, 'notices')).toBe(false);
  });

  it('builds paths with encoded parameters', () => {
    expect(appPath('notices')).toBe('/app');
    expect(appPath('groupMembers', { naziv: nameSegment('Izvođač A/B'), groupId: '7' })).toBe(
      '/app/grupe/upravljanje-korisnicima/Izvo%C4%91a%C4%8D%20A-B/7',
    );
    expect(() => appPath('user')).toThrow();
  });

  it('lands an Admin on activities in progress and everyone else on /app', () => {
    expect(landingPath('Admin')).toBe('/app/aktivnosti-u-toku');
    expect(landingPath('Zaposleni')).toBe('/app');
    expect(landingPath('Gost')).toBe('/app');
  });

  it('has unique keys and paths', () => {
    expect(new Set(APP_ROUTES.map((r) => r.key)).size).toBe(APP_ROUTES.length);
    expect(new Set(APP_ROUTES.map((r) => r.path)).size).toBe(APP_ROUTES.length);
  });
});
