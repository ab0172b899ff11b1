/**
 * The answers src/opening.ts asked for before the application loaded (a visit that opens on /app): a GET
 * of the same address with the same token takes its answer instead of asking again, once.
 */
type Opening = { token: string; answers: Map<string, Promise<Response>> };

export function takeOpeningAnswer(url: string, token: string | null): Promise<Response> | undefined {
  const opening = (window as { __trasaOpening?: Opening }).__trasaOpening;
  if (!opening || !token || opening.token !== token) return undefined;
  const answer = opening.answers.get(url);
  if (answer) opening.answers.delete(url);
  return answer;
}
