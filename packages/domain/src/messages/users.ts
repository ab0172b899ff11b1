/** Texts of users, groups and roles (spec 1 §5, §8), verbatim; ours marked in docs/decisions.md. */
export const USERS = {
  // create / edit user (spec 1 §5)
  imeRequired: 'Morate proslediti ime korisnika',
  prezimeRequired: 'Morate proslediti prezime korisnika',
  emailInvalid: 'email nije ispravan',
  emailRequired: 'Unesite email',
  chooseOption: 'Izaberite jednu od opcija',
  invalidOption: 'Niste izabrali validnu opciju',
  passwordMin: 'Lozinka mora imati minimum 8 karaktera',
  passwordsMustMatch: 'Lozinke moraju biti identične',

  // notices (spec 1 §8)
  created: 'Uspešno ste napravili korisnički nalog.',
  createFailed: 'Korisnički nalog neuspešno napravljen!',
  emailTakenCreate: 'Unesena E-pošta je zauzeta.',
  edited: 'Uspešno unesene izmene.',
  editFailed: 'Izmene nisu uspešne',
  emailTakenEdit: 'E-pošta je zauzeta.',
  deleted: 'Korisnički nalog je deaktiviran.',
  deleteFailedPrefix: 'Korisnički nalog neuspešno obrisan!',
  loadFailed: 'Greška pri preuzimanju podataka',
  roleChanged: 'Uspešno ste promenili rolu korisniku.',
  roleChangeFailed: 'Neuspešno promenjena rola.',
  guestAdded: 'Uspešno ste ubacili korisnika u grupu.',
  guestAddFailed: 'Neuspešno dodavanje korisnika u grupu.',
  removedFromGroup: 'Uspešno ste izbacili korisnika iz grupe.',
  removeFromGroupFailed: 'Neuspešno izbacivanje korisnika iz grupe',
  deleteConfirm: 'Da li ste sigurni?',
  deleteUserNote: 'Brisanje korisnika menja status',
  deleteGroupNote: 'Brisanje grupe je trajno',
  cannotDeleteSelf: 'Svoj nalog brišete na stranici Moj nalog.',
  roleNotAllowed: 'Ne možete dodeliti ovu rolu.',

  // groups
  groupNazivRequired: 'Morate upisati naziv grupe.',
  groupKratakRequired: 'Morate upisati kratak naziv.',
  groupTipRequired: 'Morate izabrati tip grupe.',
  groupCreated: 'Uspešno ste kreirali grupu.',
  groupCreateFailed: 'Kreiranje grupe neuspešno.',
  groupEdited: 'Uspešno ste izmenili grupu.',
  groupEditFailed: 'Izmena grupe neuspešna.',
  groupDeleted: 'Uspešno ste obrisali grupu.',
  groupDeleteFailed: 'Brisanje grupe neuspešno.',
  groupReserved: 'Grupa Admin se ne može birati, menjati ni brisati.',
  groupNameTaken: 'Grupa sa tim nazivom već postoji.',
  /** Ours: names are compared with case and script folded ('Beograd' = 'БЕОГРАД'), among one parent's groups. */
  groupNameTakenInParent: 'Grupa sa tim nazivom već postoji u istoj nadređenoj grupi.',
  groupCycle: 'Grupa ne može biti podređena sebi ni svojoj podređenoj grupi.',
  groupHasChildren: 'Grupa ima podređene grupe i ne može se obrisati.',
  groupHasMembers: 'Grupa ima članove i ne može se obrisati.',
  groupInUse: 'Grupa je odgovorna za klastere, ugovore ili teme i ne može se obrisati.',

  // roles
  roleImeRequired: 'Morate upisati ime role.',
  roleKratakRequired: 'Morate upisati kratak naziv.',
  roleSaved: 'Uspešno ste sačuvali rolu.',
  roleSaveFailed: 'Čuvanje role neuspešno.',
  roleAndGroupRequired: 'Izaberite rolu i grupu.',
  /** Ours: a role's name is unique with case and script folded (roles can't be deleted). */
  roleNameTaken: 'Rola sa tim imenom već postoji.',
  /** Ours: a Rukovodilac edits only extra roles held inside their subtree (docs/decisions.md). */
  roleEditNotAllowed: 'Ovu rolu može izmeniti samo administrator.',

  // group types (spec 2 §5)
  typeNazivRequired: 'Morate upisati Naziv.',
  typeKratakRequired: 'Morate upisati kratak naziv.',
  typeInUse: 'Tip grupe se koristi i ne može se obrisati.',
  typeBuiltin: 'Ugrađeni tip grupe se ne može obrisati.',
  typeCreated: 'Uspešno ste dodali tip grupe.',
  typeEdited: 'Uspešno ste izmenili tip grupe.',
  typeDeleted: 'Uspešno ste obrisali tip grupe.',
  typeNameTaken: 'Tip grupe sa tim nazivom već postoji.',
  lastAdmin: 'Mora postojati bar jedan aktivan administrator.',
  codebookError: 'Greška.',
} as const;
