/**
 * Texts in the user's script without touching the places that show them (issue 13 item 10).
 *
 * `scripted(texts)` is a live view of a text object (the domain's message objects, the web's UI and label
 * modules): reading a string property gives it in the current script (inScript), a function property
 * gives a function whose string answer is in the current script, nested objects and arrays are views
 * too. Nothing is copied, so the same object reads in Latin right after setScript('lat'); the app is
 * re-rendered from its root when the script changes (FullApp), so every screen reads again.
 *
 * What stays as written: the names listed in `keep` (texts the web compares with the server's, not shown),
 * and the strings a text function is given (names and numbers from the server are data, shown as they
 * are): the function is called with stand-ins, its answer converted, and the stand-ins put back.
 */
import { getScript, inScript } from './script';

export type ScriptedOptions = {
  /** Property names whose values are not shown (keys, phrases matched in server answers): left as they are. */
  keep?: readonly string[];
};

const views = new WeakMap<object, unknown>();
const functions = new WeakMap<object, unknown>();
const SOURCE = Symbol('scripted source');

/** Private-use characters around an argument's index: no script conversion touches them. */
const OPEN = '\uE000';
const CLOSE = '\uE001';
const STAND_IN = /\uE000(\d+)\uE001/g;

function scriptedFunction(fn: (...args: unknown[]) => unknown, keep: ReadonlySet<string>): unknown {
  const known = functions.get(fn);
  if (known) return known;
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    // The strings it is given are data: carried through as stand-ins, so only the text around them changes.
    const standIns = args.map((arg, i) => (typeof arg === 'string' ? `${OPEN}${i}${CLOSE}` : arg));
    const answer = fn.apply(this, standIns);
    if (typeof answer === 'string') {
      const converted = inScript(answer).replace(STAND_IN, (_, i: string) => String(args[Number(i)]));
      if (!converted.includes(OPEN) && !converted.includes(CLOSE)) return converted;
    }
    // A function that looked into its strings (or answers something else): called again as it is.
    const plain = fn.apply(this, args);
    if (typeof plain === 'string') return inScript(plain);
    return plain !== null && typeof plain === 'object' ? scriptedView(plain, keep) : plain;
  };
  functions.set(fn, wrapped);
  return wrapped;
}

function scriptedView<T extends object>(source: T, keep: ReadonlySet<string>): T {
  const known = views.get(source);
  if (known) return known as T;
  const view: T = new Proxy(source, {
    get(target, property, receiver) {
      if (property === SOURCE) return target;
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property === 'symbol' || keep.has(property)) return value;
      if (typeof value === 'string') return inScript(value);
      if (typeof value === 'function') {
        // Array methods (map, join, …) run on the view, so the elements they read are converted already.
        if (Array.isArray(target)) return value;
        return scriptedFunction(value as (...args: unknown[]) => unknown, keep);
      }
      if (value !== null && typeof value === 'object') return scriptedView(value, keep);
      return value;
    },
    getOwnPropertyDescriptor(target, property): PropertyDescriptor | undefined {
      const descriptor = Reflect.getOwnPropertyDescriptor(target, property);
      // Spreading ({ ...UI }) and Object.entries read values through descriptors: give converted ones.
      if (descriptor && 'value' in descriptor && descriptor.configurable && typeof property === 'string') {
        return { ...descriptor, value: (view as Record<string, unknown>)[property] };
      }
      return descriptor;
    },
  });
  views.set(source, view);
  return view;
}

/** A live view of `texts` whose strings read in the current script (see the module's note). */
export function scripted<T extends object>(texts: T, options: ScriptedOptions = {}): T {
  return scriptedView(texts, new Set(options.keep ?? []));
}

/** The object behind a view (what was written), e.g. to compare with a text the server sent. */
export function unscripted<T extends object>(view: T): T {
  return ((view as Record<symbol, unknown>)[SOURCE] as T | undefined) ?? view;
}

/** The current script, re-exported for modules that import their texts from here. */
export { getScript, inScript };
