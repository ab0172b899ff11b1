import { ACCOUNT } from '@trasa/domain/messages/account';
import { PUBLIC_PATHS } from '@trasa/domain/routes';
import { useSearchParams } from 'react-router';
import { requestPasswordReset, setNewPassword, signup } from '../api/account';
import { fieldErrorOf, messageOf, statusOf } from '../api/errors';
import { useDelayedNavigate } from '../components/useDelayedNavigate';
import { inScript } from '../script';
import { UI } from '../texts';
import { notice } from './notice';
import { useScript } from './ScriptChoice';
import { forgotErrors, normalEmail, resetErrors, type SignupValues, signupErrors } from './validate';
import './public.css';
import { PageLink, PublicLayout, SubmitButton, TextInput, useCall, useLightForm } from './PublicForm';

export { LoginPage, onSignInStarted } from './LoginPage';

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
