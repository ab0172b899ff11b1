import { type FormEvent, type ReactNode, type RefCallback, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { documentTitleOf } from '../components/useDocumentTitle';
import { inScript } from '../script';
import { UI } from '../texts';
import { Notices } from './notice';
import { ScriptChoice, useScript } from './ScriptChoice';
import type { Errors } from './validate';

/**
 * The public pages' frame and form parts: the layout, a light form's state and checks, its inputs, buttons
 * and links, and a call's state.
 */

/** The frame of the public pages: the script switch, product name, ministry and a card with the page's form. */
export function PublicLayout({ title, children }: { title: string; children: ReactNode }) {
  useScript();
  const heading = inScript(title);
  useEffect(() => {
    document.title = documentTitleOf(heading);
  }, [heading]);
  return (
    <main className="tp-main">
      <ScriptChoice />
      <h1 className="tp-h1">{inScript(UI.appName)}</h1>
      <p className="tp-ministry">{inScript(UI.ministry)}</p>
      <div className="tp-card">
        <h2 className="tp-h2">{heading}</h2>
        {children}
      </div>
      <Notices />
    </main>
  );
}

type FieldProps = {
  name: string;
  value: string;
  error: string | undefined;
  inputRef: RefCallback<HTMLInputElement>;
  onChange: (value: string) => void;
};

/**
 * A form's state as react-hook-form with zodResolver kept it: checked on submit (the first invalid field
 * takes the focus), then each field again as it changes; a server's answer can be set on a field.
 */
export function useLightForm<F extends string>(defaults: Record<F, string>, validate: (values: Record<F, string>) => Errors<F>) {
  const [values, setValues] = useState(defaults);
  const [errors, setErrors] = useState<Errors<F>>({});
  const submitted = useRef(false);
  const inputs = useRef<Partial<Record<F, HTMLInputElement | null>>>({});
  const order = Object.keys(defaults) as F[];

  const check = (v: Record<F, string>): Errors<F> => {
    const found = validate(v);
    for (const field of order) if (found[field]) found[field] = inScript(found[field]);
    return found;
  };

  const field = (name: F): FieldProps => ({
    name,
    value: values[name],
    error: errors[name],
    inputRef: (el) => {
      inputs.current[name] = el;
    },
    onChange: (value) => {
      const next = { ...values, [name]: value };
      setValues(next);
      if (submitted.current) setErrors((current) => ({ ...current, [name]: check(next)[name] }));
    },
  });

  const setError = (name: F, message: string, focus = false) => {
    setErrors((current) => ({ ...current, [name]: message }));
    if (focus) inputs.current[name]?.focus();
  };

  const handleSubmit = (onValid: (values: Record<F, string>) => void) => (event: FormEvent) => {
    event.preventDefault();
    submitted.current = true;
    const found = check(values);
    setErrors(found);
    const first = order.find((f) => found[f]);
    if (first) inputs.current[first]?.focus();
    else onValid(values);
  };

  return { values, field, setError, handleSubmit };
}

export function TextInput({
  field,
  label,
  type = 'text',
  autoComplete,
  autoFocus,
}: {
  field: FieldProps;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete: string;
  autoFocus?: boolean;
}) {
  const id = useId();
  const helperId = `${id}-helper-text`;
  return (
    <div className={field.error ? 'tp-field tp-field-error' : 'tp-field'}>
      <input
        ref={field.inputRef}
        id={id}
        className="tp-input"
        name={field.name}
        type={type}
        value={field.value}
        onChange={(e) => field.onChange(e.target.value)}
        placeholder=" "
        autoComplete={autoComplete}
        // biome-ignore lint/a11y/noAutofocus: the form's first field, as on the MUI pages (spec 1 §2.1)
        autoFocus={autoFocus}
        aria-invalid={field.error ? true : undefined}
        aria-describedby={field.error ? helperId : undefined}
      />
      <label htmlFor={id} className="tp-label">
        {inScript(label)}
      </label>
      {field.error && (
        <p id={helperId} className="tp-helper" role="alert">
          {field.error}
        </p>
      )}
    </div>
  );
}

export function SubmitButton({ disabled, children }: { disabled: boolean; children: string }) {
  return (
    <button type="submit" className="tp-button" disabled={disabled}>
      {inScript(children)}
    </button>
  );
}

export function PageLink({ to, children }: { to: string; children: string }) {
  return (
    <Link to={to} className="tp-link">
      {inScript(children)}
    </Link>
  );
}

/** A call's state: pending while it runs, done after it succeeded (the forms stay disabled then). */
export function useCall<A extends unknown[], R>(
  fn: (...args: A) => Promise<R>,
  onSuccess: (result: R) => void,
  onError: (error: unknown) => void,
) {
  const [state, setState] = useState<'idle' | 'pending' | 'done'>('idle');
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const latest = useRef({ fn, onSuccess, onError });
  latest.current = { fn, onSuccess, onError };
  const run = useCallback((...args: A) => {
    setState('pending');
    latest.current.fn(...args).then(
      (result) => {
        if (!mounted.current) return;
        setState('done');
        latest.current.onSuccess(result);
      },
      (error: unknown) => {
        if (!mounted.current) return;
        setState('idle');
        latest.current.onError(error);
      },
    );
  }, []);
  return { run, pending: state === 'pending', done: state === 'done', reset: () => setState('idle') };
}
