import type { UserDto } from '@trasa/domain';
import { ACCOUNT } from '@trasa/domain/messages/account';
import { COMMON } from '@trasa/domain/messages/common';
import { landingPath, PUBLIC_PATHS } from '@trasa/domain/routes';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { login, resendActivation } from '../api/account';
import { messageOf, statusOf } from '../api/errors';
import { useDelayedNavigate } from '../components/useDelayedNavigate';
import { inScript } from '../script';
import { UI } from '../texts';
import { signedIn } from './handoff';
import { notice } from './notice';
import { PageLink, PublicLayout, SubmitButton, TextInput, useCall, useLightForm } from './PublicForm';
import { useScript } from './ScriptChoice';
import { type LoginValues, loginErrors, normalEmail } from './validate';

/**
 * The sign-in page (spec 1 §2.1): the form, the notices of a followed link, and the redirect into the
 * application.
 */
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
    if (linkNotice && value === linkNotice.okValue) notice.success(inScript(linkNotice.done), ACTIVATION_NOTICE_MS);
    else if (linkNotice) notice.error(inScript(linkNotice.failed), ACTIVATION_NOTICE_MS);
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
