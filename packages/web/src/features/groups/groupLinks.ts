import { appPath, type GroupDto, nameSegment } from '@trasa/domain';

export function groupDetailsPath(group: Pick<GroupDto, '_id'>): string {
  return appPath('group', { id: group._id });
}

/** /app/grupe/upravljanje-korisnicima/{naziv with '/' → '-'}/{groupId} (spec 1 §2.2). */
export function groupMembersPath(group: Pick<GroupDto, '_id' | 'naziv'>): string {
  return appPath('groupMembers', { naziv: nameSegment(group.naziv), groupId: group._id });
}
