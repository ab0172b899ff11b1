/**
 * The public pages (sign-in, sign-up, forgotten and new password) without MUI, React Query and zod
 * (issue 13 item 2): React, the router and plain HTML/CSS styled to spec 1 §9 as the MUI pages were,
 * with the same texts, checks, messages and redirects (spec 1 §2.1, §2.4, §5, §8).
 */
import type { UserDto } from '@trasa/domain';
import { ACCOUNT } from '@trasa/domain/messages/account';
import { COMMON } from '@trasa/domain/messages/common';
import { landingPath, PUBLIC_PATHS } from '@trasa/domain/routes';
import { type FormEvent, type ReactNode, type RefCallback, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { login, requestPasswordReset, resendActivation, setNewPassword, signup } from '../api/account';
import { fieldErrorOf, messageOf, statusOf } from '../api/errors';
import { useDelayedNavigate } from '../components/useDelayedNavigate';
import { documentTitleOf } from '../components/useDocumentTitle';
import { inScript } from '../script';
import { UI } from '../texts';
import { signedIn } from './handoff';
import { Notices, notice } from './notice';
import { ScriptChoice, useScript } from './ScriptChoice';
import {
  type Errors,
  forgotErrors,
  type LoginValues,
  loginErrors,
  normalEmail,
  resetErrors,
  type SignupValues,
  signupErrors,
} from './validate';
import './public.css';

/** The frame of the public pages: the script switch, product name, ministry and a card with the page's form. */
function PublicLayout({ title, children }: { title: string; children: ReactNode }) {
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
function useLightForm<F extends string>(defaults: Record<F, string>, validate: (values: Record<F, string>) => Errors<F>) {
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

function TextInput({
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

function SubmitButton({ disabled, children }: { disabled: boolean; children: string }) {
  return (
    <button type="submit" className="tp-button" disabled={disabled}>
      {inScript(children)}
    </button>
  );
}

function PageLink({ to, children }: { to: string; children: string }) {
  return (
    <Link to={to} className="tp-link">
      {inScript(children)}
    </Link>
  );
}

/** A call's state: pending while it runs, done after it succeeded (the forms stay disabled then). */
function useCall<A extends unknown[], R>(
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

/** Delay of the redirect after a successful login (spec 1 §2.1). */
const LOGIN_REDIRECT_MS = 200;
const ACTIVATION_NOTICE_MS = 4000;

/**
 * The result of following a mailed link: the server redirects to /?aktivacija=uspesna|neuspesna
 * (activation) or /?imejl=potvrdjen|neuspesno (a new e-mail address confirmed).
 */
const LINK_NOTICES: Record<string, { okValue: string; done: string; failed: string }> = {
  aktivacija: { okValue: 'uspesna', done: ACCOUNT.activationDone, failed: ACCOUNT.activationInvalid },
  imejl: { okValue: 'potvrdjen', done: ACCOUNT.emailChangeDone, failed: ACCOUNT.emailChangeInvalid },
};

function useLinkNotice() {
  const [params, setParams] = useSearchParams();
  const shown = useRef(false);
  const param = Object.keys(LINK_NOTICES).find((p) => params.has(p));
  const value = param ? params.get(param) : null;
  useEffect(() => {
    if (!param || shown.current) return;
    shown.current = true;
    const linkNotice = LINK_NOTICES[param];
    if (linkNotice && value === linkNotice.okValue) notice.success(linkNotice.done, ACTIVATION_NOTICE_MS);
    else if (linkNotice) notice.error(linkNotice.failed, ACTIVATION_NOTICE_MS);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(param);
        return next;
      },
      { replace: true },
    );
  }, [param, value, setParams]);
}

/** Loads the application while the sign-in call runs (main.tsx sets it). */
let prepareApp: () => void = () => undefined;
export function onSignInStarted(prepare: () => void): void {
  prepareApp = prepare;
}

export function LoginPage() {
  useScript();
  useLinkNotice();
  const navigateLater = useDelayedNavigate();
  // Shown when sign-in answered that the e-mail is not confirmed yet: the link may have expired.
  const [offerResend, setOfferResend] = useState(false);
  const form = useLightForm<keyof LoginValues>({ email: '', lozinka: '' }, loginErrors);

  const signIn = useCall(
    login,
    ({ token, user }: { token: string | undefined; user: UserDto | undefined }) => {
      if (!token) {
        form.setError('lozinka', ACCOUNT.noToken);
        signIn.reset();
        return;
      }
      signedIn(token, user);
      navigateLater(user ? landingPath(user.rola) : '/app', LOGIN_REDIRECT_MS, { replace: true });
    },
    (error) => {
      // Spec 1 §8: without a server message, sign-in says 'Network or server error' (in Serbian; a network failure too).
      const message = statusOf(error) === 0 ? COMMON.networkError : messageOf(error, COMMON.networkError);
      form.setError(message.includes('Korisnik') ? 'email' : 'lozinka', message, true);
      setOfferResend(message === ACCOUNT.inactiveUser);
    },
  );

  const resend = useCall(
    () => resendActivation(form.values.email.trim()),
    (data) => {
      notice.success(data?.message ?? inScript(ACCOUNT.resendActivationSent), ACTIVATION_NOTICE_MS);
      setOfferResend(false);
      resend.reset();
    },
    (error) => notice.error(messageOf(error, inScript(COMMON.networkError))),
  );

  return (
    <PublicLayout title={UI.loginTitle}>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => {
          prepareApp();
          signIn.run({ email: normalEmail(values.email), lozinka: values.lozinka });
        })}
      >
        <div className="tp-stack">
          <TextInput field={form.field('email')} label={UI.email} type="email" autoComplete="username" autoFocus />
          <TextInput field={form.field('lozinka')} label={UI.lozinka} type="password" autoComplete="current-password" />
          <SubmitButton disabled={signIn.pending || signIn.done}>{UI.loginButton}</SubmitButton>
          {offerResend && (
            <button type="button" className="tp-text-button" onClick={() => resend.run()} disabled={resend.pending}>
              {inScript(ACCOUNT.resendActivationLink)}
            </button>
          )}
          <div className="tp-links">
            <PageLink to={PUBLIC_PATHS.register}>{UI.registerLink}</PageLink>
            <PageLink to={PUBLIC_PATHS.forgotPassword}>{UI.forgotLink}</PageLink>
          </div>
        </div>
      </form>
    </PublicLayout>
  );
}

/** After sign-up the page waits 4 s on the notice, then goes to the login page (spec 1 §2.4). */
const SIGNUP_REDIRECT_MS = 4000;

export function RegisterPage() {
  useScript();
  const navigateLater = useDelayedNavigate();
  const form = useLightForm<keyof SignupValues>({ ime: '', prezime: '', email: '', lozinka: '' }, signupErrors);
  const call = useCall(
    signup,
    () => {
      notice.success(inScript(ACCOUNT.signupSuccess), SIGNUP_REDIRECT_MS);
      navigateLater(PUBLIC_PATHS.login, SIGNUP_REDIRECT_MS);
    },
    (error) => {
      const message = messageOf(error, inScript(ACCOUNT.signupFailed));
      notice.error(message);
      if (statusOf(error) === 409) form.setError('email', fieldErrorOf(error, 'email') ?? message, true);
      for (const field of ['ime', 'prezime', 'lozinka'] as const) {
        const text = statusOf(error) === 400 ? fieldErrorOf(error, field) : undefined;
        if (text) form.setError(field, text);
      }
    },
  );

  return (
    <PublicLayout title={UI.registerTitle}>
      <form
        noValidate
        onSubmit={form.handleSubmit((v) =>
          call.run({ ime: v.ime.trim(), prezime: v.prezime.trim(), email: normalEmail(v.email), lozinka: v.lozinka }),
        )}
      >
        <div className="tp-stack">
          <TextInput field={form.field('ime')} label={UI.ime} autoComplete="given-name" autoFocus />
          <TextInput field={form.field('prezime')} label={UI.prezime} autoComplete="family-name" />
          <TextInput field={form.field('email')} label={UI.email} type="email" autoComplete="email" />
          <TextInput field={form.field('lozinka')} label={UI.lozinka} type="password" autoComplete="new-password" />
          <SubmitButton disabled={call.pending || call.done}>{UI.registerButton}</SubmitButton>
          <PageLink to={PUBLIC_PATHS.login}>{UI.backToLogin}</PageLink>
        </div>
      </form>
    </PublicLayout>
  );
}

const FORGOT_REDIRECT_MS = 2000;

/** Requests a reset link; the server's answer is shown, then the login page after 2 s (spec 1 §2.4). */
export function ForgotPasswordPage() {
  useScript();
  const navigateLater = useDelayedNavigate();
  const form = useLightForm({ email: '' }, forgotErrors);
  const call = useCall(
    requestPasswordReset,
    (data) => {
      notice.success(data?.message || inScript(ACCOUNT.forgotSent), FORGOT_REDIRECT_MS);
      navigateLater(PUBLIC_PATHS.login, FORGOT_REDIRECT_MS);
    },
    (error) => notice.error(messageOf(error, inScript(ACCOUNT.forgotFailed))),
  );

  return (
    <PublicLayout title={UI.forgotTitle}>
      <form noValidate onSubmit={form.handleSubmit((v) => call.run(normalEmail(v.email)))}>
        <div className="tp-stack">
          <TextInput field={form.field('email')} label={UI.email} type="email" autoComplete="email" autoFocus />
          <SubmitButton disabled={call.pending || call.done}>{UI.forgotButton}</SubmitButton>
          <PageLink to={PUBLIC_PATHS.login}>{UI.backToLogin}</PageLink>
        </div>
      </form>
    </PublicLayout>
  );
}

const RESET_REDIRECT_MS = 1500;

/** Sets a new password from the mailed link /reset-lozninke?email=…&code=… (spec 1 §2.1, §2.4). */
export function ResetPasswordPage() {
  useScript();
  const [params] = useSearchParams();
  const email = params.get('email')?.trim() ?? '';
  const resetCode = params.get('code')?.trim() ?? '';
  const linkValid = !!email && !!resetCode;
  const navigateLater = useDelayedNavigate();
  const form = useLightForm({ password: '', confirmPassword: '' }, resetErrors);
  const call = useCall(
    setNewPassword,
    () => {
      notice.success(inScript(ACCOUNT.resetSuccess));
      navigateLater(PUBLIC_PATHS.login, RESET_REDIRECT_MS);
    },
    (error) => {
      notice.error(messageOf(error, inScript(ACCOUNT.resetFailed)));
      // A password the server refuses (too common, built on the name): shown under the field too.
      const text = fieldErrorOf(error, 'password');
      if (text) form.setError('password', text, true);
    },
  );

  return (
    <PublicLayout title={UI.resetTitle}>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => {
          if (!linkValid) notice.error(inScript(ACCOUNT.resetLinkInvalid));
          else call.run({ ...values, email, resetCode });
        })}
      >
        <div className="tp-stack">
          {!linkValid && (
            <div className="tp-warning" role="alert">
              {inScript(ACCOUNT.resetLinkInvalid)}
            </div>
          )}
          <TextInput field={form.field('password')} label={UI.newPassword} type="password" autoComplete="new-password" autoFocus />
          <TextInput field={form.field('confirmPassword')} label={UI.confirmPassword} type="password" autoComplete="new-password" />
          <SubmitButton disabled={call.pending || call.done}>{UI.resetButton}</SubmitButton>
          <PageLink to={PUBLIC_PATHS.login}>{UI.backToLogin}</PageLink>
        </div>
      </form>
    </PublicLayout>
  );
}

/** While the application loads (after sign-in, or for /app and the school's link). */
export function LightLoader() {
  return (
    <div className="tp-loader">
      <div className="tp-spinner" role="progressbar" aria-label={inScript(UI.loading)} />
    </div>
  );
}
