/**
 * The answers src/opening.ts asked for before the application loaded (a visit that opens on /app): a GET
 * of the same address with the same token, in the same script, takes its answer instead of asking again, once — while the
 * page is opening (OPENING_MS) and before any change is sent: an answer not taken by then is dropped, so a
 * later read (the profile read again after it was edited) never gets what was true when the page opened.
 */
import { getScript } from '../script';

type Opening = { token: string; script: string; answers: Map<string, Promise<Response>> };

const OPENING_MS = 20_000;

/** Drops the answers not taken (a change is being sent: they may no longer be true). */
export function dropOpeningAnswers(): void {
  (window as { __trasaOpening?: Opening }).__trasaOpening?.answers.clear();
}

export function takeOpeningAnswer(url: string, token: string | null): Promise<Response> | undefined {
  const opening = (window as { __trasaOpening?: Opening }).__trasaOpening;
  if (!opening || !token || opening.token !== token || opening.script !== getScript()) return undefined;
  if (performance.now() > OPENING_MS) {
    opening.answers.clear();
    return undefined;
  }
  const answer = opening.answers.get(url);
  if (answer) opening.answers.delete(url);
  return answer;
}
