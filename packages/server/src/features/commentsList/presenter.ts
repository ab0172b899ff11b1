import type { CommentListDto } from '@trasa/domain';

export type CommentListRow = {
  id: string;
  komentar: string;
  createdAt: Date;
  activityId: string;
  code: string;
  activityNaziv: string;
  clusterId: string;
  clusterNaziv: string;
  /** null when the author's row is gone; deletedAt set when they deleted their account (anonymised). */
  user: { ime: string; prezime: string; email: string; deletedAt: Date | null } | null;
};

export function presentCommentRow(row: CommentListRow): CommentListDto {
  const author = row.user && !row.user.deletedAt ? { ime: row.user.ime, prezime: row.user.prezime, email: row.user.email } : null;
  return {
    _id: row.id,
    komentar: row.komentar,
    createdAt: row.createdAt.toISOString(),
    user: author,
    aktivnost: row.activityId,
    kratakNaziv: row.code,
    naziv: row.activityNaziv,
    lokacija: { _id: row.clusterId, naziv: row.clusterNaziv },
  };
}
