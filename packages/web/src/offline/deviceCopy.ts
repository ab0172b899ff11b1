/**
 * The device's copy as the API client sees it (api/client.ts `CallObserver`, handed in by the application):
 * each call's outcome moves the network state (network.ts); the signed-in user's GET answers of the kept
 * kinds are written to the device and read back when the network fails (kept.ts); a refused token clears
 * the kept answers and tells the offline parts, the queue staying for the same user (session.ts).
 */
import { keepCopy, keptKindOf, readCopy, userIdOfToken } from './kept';
import { reportNetworkAnswer, reportNetworkFailure } from './network';

export const deviceCopy = {
  keeps: (path: string): boolean => keptKindOf(path) !== null,
  answered: reportNetworkAnswer,
  failed: reportNetworkFailure,
  keep(token: string, path: string, data: unknown, stillSignedIn: () => boolean): void {
    void keepCopy(token, path, data, stillSignedIn);
  },
  read: readCopy,
  refused(token: string): void {
    const userId = userIdOfToken(token);
    void import('./session').then((session) => session.signedOut('rejected', userId));
  },
};
