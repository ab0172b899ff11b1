import type { IjoOdgovoran } from '../messages/ijo.js';

/** A public-authority holder (spec 3 §3 "Holder (IJO)"); GET /api/ijo answers { ijos }, sorted by name. */
export type IjoDto = { _id: string; naziv: string; odgovoran: IjoOdgovoran };
export type IjoList = { ijos: IjoDto[] };
