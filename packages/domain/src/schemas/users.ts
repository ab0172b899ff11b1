import { z } from 'zod';
import { USERS } from '../messages/users.js';
import type { GroupRef, UserDto } from './account.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './account.js';
import { pageQuery } from './common.js';

const uuid = (message: string) => z.uuid({ error: message });
const required = (message: string, max = 100) =>
  z.string({ error: message }).trim().min(1, { error: message }).max(max, { error: 'Predugačak unos.' });

const email = z
  .string({ error: USERS.emailRequired })
  .trim()
  .min(1, { error: USERS.emailRequired })
  .max(254, { error: USERS.emailInvalid })
  .pipe(z.email({ error: USERS.emailInvalid }))
  .transform((e) => e.toLowerCase());

const password = z
  .string({ error: USERS.passwordMin })
  .min(PASSWORD_MIN, { error: USERS.passwordMin })
  .max(PASSWORD_MAX, { error: 'Лозинка може имати највише 128 карактера.' })
  .regex(/[A-Za-z]/, { error: 'Лозинка мора да садржи латинична слова.' });

const status = z.enum(['aktivan', 'neaktivan'], { error: USERS.chooseOption });

/**
 * POST /api/user/ (spec 1 §5 "Create user"). `rola` is a role _id from GET /api/role; `grupa` a group
 * _id, required unless the role is Gost or Admin (checked on the server, which knows the role's base).
 * emailPotvrdjen drives status: true → aktivan, false → neaktivan.
 */
export const createUserSchema = z
  .object({
    ime: required(USERS.imeRequired),
    prezime: required(USERS.prezimeRequired),
    email,
    emailPotvrdjen: z.boolean({ error: USERS.chooseOption }),
    rola: uuid(USERS.chooseOption),
    status: status,
    grupa: z.union([uuid(USERS.invalidOption), z.literal(''), z.null()], { error: USERS.invalidOption }).optional(),
    lozinka: z.string({ error: USERS.passwordMin }).min(1, { error: USERS.passwordMin }).pipe(password),
    potvrdaLozinke: z.string({ error: USERS.passwordsMustMatch }),
  })
  .refine((v) => v.lozinka === v.potvrdaLozinke, { error: USERS.passwordsMustMatch, path: ['potvrdaLozinke'] });
export type CreateUserInput = z.input<typeof createUserSchema>;

/** PATCH /api/user/single/{id}: as create, the password optional, the group field named groupId. */
export const editUserSchema = z
  .object({
    ime: required(USERS.imeRequired),
    prezime: required(USERS.prezimeRequired),
    email,
    emailPotvrdjen: z.boolean({ error: USERS.chooseOption }),
    rola: uuid(USERS.chooseOption),
    status: status,
    groupId: z.union([uuid(USERS.invalidOption), z.literal(''), z.null()], { error: USERS.invalidOption }).optional(),
    lozinka: z.union([z.literal(''), password], { error: USERS.passwordMin }).optional(),
    potvrdaLozinke: z.string().optional(),
  })
  .refine((v) => !v.lozinka || v.lozinka === v.potvrdaLozinke, { error: USERS.passwordsMustMatch, path: ['potvrdaLozinke'] });
export type EditUserInput = z.input<typeof editUserSchema>;

/** POST /api/role/add-role: give a user (a guest or a member) a role, in a group. */
export const addRoleSchema = z.object({
  guestId: uuid(USERS.roleAndGroupRequired),
  newRole: uuid(USERS.roleAndGroupRequired),
  groupId: z.union([uuid(USERS.roleAndGroupRequired), z.literal(''), z.null()], { error: USERS.roleAndGroupRequired }).optional(),
});

export const roleSchema = z.object({
  imeRole: required(USERS.roleImeRequired),
  kratakNaziv: required(USERS.roleKratakRequired, 30),
  /** The built-in role whose permissions an extra role carries (server-behaviour.md); default Zaposleni. */
  osnovnaRola: z.enum(['Rukovodilac', 'Zaposleni', 'Gost'], { error: USERS.chooseOption }).optional(),
});

const optionalId = z.union([uuid(USERS.invalidOption), z.literal(''), z.null()], { error: USERS.invalidOption }).optional();

/** POST /api/group/create. `tip` is a group-type _id from GET /api/types. */
export const createGroupSchema = z.object({
  nadredjenaId: optionalId,
  naziv: required(USERS.groupNazivRequired, 200),
  kratakNaziv: required(USERS.groupKratakRequired, 50),
  tip: z.union([uuid(USERS.groupTipRequired), z.literal(''), z.null()], { error: USERS.groupTipRequired }).optional(),
  sveVideci: z.boolean({ error: USERS.chooseOption }).optional().default(false),
  cirilica: z.string().trim().max(200).optional(),
});

/** PATCH /api/group/{id}. */
export const editGroupSchema = z.object({
  nadredjenaGrupa: optionalId,
  naziv: required(USERS.groupNazivRequired, 200),
  kratakNaziv: required(USERS.groupKratakRequired, 50),
  tip: z.union([uuid(USERS.groupTipRequired), z.literal(''), z.null()], { error: USERS.groupTipRequired }).optional(),
  sveVideci: z.boolean({ error: USERS.chooseOption }).optional().default(false),
  cirilica: z.string().trim().max(200).optional(),
});

/** Group types of the codebook (spec 2 §5). */
export const groupTypeSchema = z.object({
  naziv: required(USERS.typeNazivRequired),
  kratakNaziv: required(USERS.typeKratakRequired, 30),
});

/** GET /api/search/{user,group}: the typed text and its transliteration. */
export const searchQuery = pageQuery.extend({
  eng: z.string().max(200).optional().default(''),
  srb: z.string().max(200).optional().default(''),
});

/**
 * `izmenljiva` (ours): whether the caller may edit the role: always for an Admin; for a Rukovodilac an
 * extra role held only inside their subtree (docs/decisions.md "Roles: a manager edits only their own").
 */
export type RoleDto = {
  _id: string;
  imeRole: string;
  kratakNaziv: string;
  osnovnaRola: string;
  ugradjena: boolean;
  izmenljiva: boolean;
};
export type GroupTypeDto = { _id: string; naziv: string; kratakNaziv: string; code: string | null };
export type GroupDto = GroupRef & {
  tipId: string | null;
  nadredjenaGrupa: { _id: string; naziv: string } | null;
  podredjeneGrupe: { _id: string; naziv: string }[];
  brojClanova: number;
};
export type UsersPage = { users: UserDto[]; totalResults: number };
export type GuestsPage = { guests: UserDto[]; totalResults: number };
/**
 * A group as the lists and pickers carry it (GET /api/group, GET /api/search/group; the pickers'
 * limit=50000 call): what the groups table shows (name, short name, type, parent, sees all) and what the
 * group form and pickers read of a row (the type's id and code, the parent's id); the Cyrillic name, the
 * children and the member count are the detail's (GET /api/group/{id}: the group details screen).
 */
export type GroupListItem = Omit<GroupDto, 'cirilica' | 'podredjeneGrupe' | 'brojClanova'>;
export type GroupsPage = { groups: GroupListItem[]; totalResults: number };

/** A row of the users import (POST /api/user/excel-import): the person; role and group are names, resolved on the server. */
export const importUserRowSchema = z.object({
  ime: required(USERS.imeRequired),
  prezime: required(USERS.prezimeRequired),
  email,
});
