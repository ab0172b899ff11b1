/** A row of the comments list (spec 3 §2.6, §3 "Comment"; docs/api/logs-comments-ijo.md). */
export type CommentListDto = {
  _id: string;
  komentar: string;
  createdAt: string;
  /** null when the author deleted their account: shown 'Korisnik je obrisan'. */
  user: { ime: string; prezime: string; email: string } | null;
  /** The activity's id (/app/aktivnost/{aktivnost}). */
  aktivnost: string;
  /** The activity's code (A1 …). */
  kratakNaziv: string;
  /** The activity's name. */
  naziv: string;
  lokacija: { _id: string; naziv: string };
};

/** GET /api/comment, GET /api/search/comment: newest first, only comments of clusters the caller sees. */
export type CommentsPage = { comments: CommentListDto[]; totalResults: number };
