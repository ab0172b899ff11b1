import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// src/firstStyles.{css,json} (written by `LH_MODE=styles node bench/lighthouse.mjs`, issue 13 item 3): emotion's
// cache takes every listed name as inserted, so each must have its rules in the stylesheet, and the stylesheet
// should hold no rule of a name left out of the list (it would be inserted a second time, after it).
const css = readFileSync(new URL('../src/firstStyles.css', import.meta.url), 'utf8');
const names: string[] = JSON.parse(readFileSync(new URL('../src/firstStyles.json', import.meta.url), 'utf8'));
const rules = css.split('\n').filter(Boolean);

describe('the first visit styles', () => {
  it('has rules for every name it marks inserted', () => {
    for (const name of names) {
      const own = name.startsWith('animation-') ? `@keyframes ${name}` : `.css-${name}`;
      expect(
        rules.some((rule) => rule.includes(own)),
        name,
      ).toBe(true);
    }
  });

  it('lists the name of every rule', () => {
    const listed = new Set(names);
    for (const rule of rules) {
      const name = /^@keyframes (animation-[\w-]+)/.exec(rule)?.[1] ?? /\.css-([a-z0-9]+)/.exec(rule)?.[1];
      expect(name && listed.has(name), rule.slice(0, 80)).toBe(true);
    }
  });
});
