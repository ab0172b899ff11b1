import type { LoginResponse, MessageResponse, Pismo, SavedTable, UserDto } from '@trasa/domain';
import { api, request } from './client';

/** Account calls of spec 1 §7. */

export type LoginBody = { email: string; lozinka: string };
export type SignupBody = { ime: string; prezime: string; email: string; lozinka: string };
export type SetNewPasswordBody = { password: string; confirmPassword: string; email: string; resetCode: string };
export type ChangePasswordBody = { password: string; newPassword: string; confirmNewPassword: string };
/** `lozinka` (the current password) only when the e-mail changes. */
export type ChangeInfoBody = { ime: string; prezime: string; email: string; lozinka?: string };

/** The token comes in the body; the Authorization header is the spec's alternative. */
export async function login(body: LoginBody): Promise<{ token: string | undefined; user: UserDto | undefined }> {
  const { data, headers } = await request<Partial<LoginResponse> | undefined>('/user/login', { method: 'POST', body, auth: false });
  const header = headers
    .get('authorization')
    ?.replace(/^Bearer\s+/i, '')
    .trim();
  return { token: data?.token || header || undefined, user: data?.user };
}

export function signup(body: SignupBody): Promise<MessageResponse> {
  return api('/user/signup', { method: 'POST', body, auth: false });
}

/** A new activation link for an account that never used its own; the same answer for any address. */
export function resendActivation(email: string): Promise<MessageResponse> {
  return api('/user/resend-activation', { method: 'POST', body: { email }, auth: false });
}

export function requestPasswordReset(email: string): Promise<MessageResponse> {
  return api('/user/reset-password', { method: 'POST', body: { email }, auth: false });
}

export function setNewPassword(body: SetNewPasswordBody): Promise<MessageResponse> {
  return api('/user/reset-password', { method: 'POST', body, auth: false });
}

export async function getMyProfile(signal?: AbortSignal): Promise<UserDto> {
  const data = await api<{ user: UserDto }>('/user/my-profile', { signal });
  return data.user;
}

/** Older tokens are revoked by the change: the answer carries the new one. */
export function changePassword(body: ChangePasswordBody): Promise<MessageResponse & { token: string }> {
  return api('/user/change-password', { method: 'POST', body });
}

export function changeInfo(body: ChangeInfoBody): Promise<MessageResponse> {
  return api('/user/change-info', { method: 'POST', body });
}

/** Saves a table layout (column order and visibility); the caller refetches my-profile afterwards. */
export function saveColumns(body: SavedTable): Promise<MessageResponse> {
  return api('/user/edit-columns', { method: 'POST', body });
}

/** Saves the script the web shows its texts in for this user (issue 13 item 10). */
export function saveScript(pismo: Pismo): Promise<MessageResponse> {
  return api('/user/edit-script', { method: 'POST', body: { pismo } });
}

export function deleteMyAccount(): Promise<MessageResponse> {
  return api('/user/my-profile', { method: 'DELETE' });
}

/** Signs out this session's token on the server. */
export function logout(signal?: AbortSignal): Promise<MessageResponse> {
  return api('/user/logout', { method: 'POST', signal });
}

/** Signs out every session of the user, this one included. */
export function logoutAll(): Promise<MessageResponse> {
  return api('/user/logout-all', { method: 'POST' });
}
