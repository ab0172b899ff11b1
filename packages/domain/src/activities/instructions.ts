/**
 * The instructions shipped with the catalogue ('Uputstvo' on the activity screen), one per code: what the
 * responsible party does, what the screen asks for and what finishing it sets off (spec 3 §2.1, §4;
 * design/activity-catalogue.md). The Admin may rewrite them on /app/aktivnosti; the start-up sync fills
 * only an empty one (features/activities/reference.ts).
 */
export const ACTIVITY_INSTRUCTIONS: Readonly<Record<string, string>> = {
  A1: [
    'Aktivnost pokreće zaposleni naručioca; klaster mora biti na ugovoru.',
    'Za svako naselje klastera izaberite naselje, unesite dužinu trase u metrima i priložite jedan fajl idejne trase.',
    'Kada je za svako naselje priložen fajl, završite aktivnost: počinje A2.',
  ].join('\n'),
  A2: [
    'Sa naručiocem usaglasite trasu i obim radova.',
    'Unesite datum usaglašavanja, revidiranu dužinu klastera i revidiranu ugovorenu vrednost; svaka izmena se čuva sama.',
    'Završetak pokreće A3 (IOL) i A4 (IDR).',
  ].join('\n'),
  A3: [
    'Pribavite informaciju o lokaciji od nadležnog organa ili utvrdite da nije potrebna.',
    "Izaberite 'Dobijena IOL' ili 'Nije potrebna IOL'; uz 'Nije potrebna IOL' priložite jedan fajl sa obrazloženjem.",
    'Zahtev za lokacijske uslove (A5) počinje kada su završeni A3 i kontrola IDR (A4.1).',
  ].join('\n'),
  A4: [
    'Izradite idejno rešenje na osnovu usaglašene trase i priložite ga (najmanje jedan fajl).',
    'Završetkom IDR odlazi nadzoru na kontrolu (A4.1). Ako nadzor ima primedbe, A4 se ponovo otvara kao nova revizija: priložite ispravljeno rešenje.',
  ].join('\n'),
  'A4.1': [
    'Nadzor pregleda idejno rešenje iz A4 (povezani dokumenti su na dnu strane).',
    "'Bez primedbi' završava kontrolu. 'Sa primedbama' zahteva fajl sa primedbama i vraća A4 izvođaču kao novu reviziju.",
  ].join('\n'),
  A5: [
    'Podnesite zahtev za lokacijske uslove kroz sistem CEOP.',
    'Unesite datum podnošenja, CEOP broj predmeta, revidiranu dužinu i revidiranu vrednost; potvrdu o podnošenju možete priložiti.',
  ].join('\n'),
  'A5.1': [
    'Unesite datum izdavanja i taksu za lokacijske uslove.',
    "'Dobijeni LU' prilaže dokument lokacijskih uslova u A6 i završava je. 'Odbijen IDR' vraća A4 na doradu kao novu reviziju.",
  ].join('\n'),
  A6: 'Aktivnost završava sistem kada su u A5.1 dobijeni lokacijski uslovi; dokument lokacijskih uslova je ovde.',
  'A6.1': [
    'Iz lokacijskih uslova izdvojite imaoce javnih ovlašćenja (IJO) čije uslove treba pribaviti i izaberite ih; izbor se prenosi u A7.',
    'Ako nijedan IJO nije naveden, priložite jedan fajl sa obrazloženjem.',
    "'Bez primedbi' pokreće A7 i A8; 'Sa primedbama' vraća A5: lokacijske uslove treba ponovo zatražiti.",
  ].join('\n'),
  A7: [
    'Za svakog imaoca javnih ovlašćenja iz A6.1 pribavite uslove: označite da je urađeno, unesite taksu u dinarima i priložite jedan fajl.',
    'Takse se unose sa najviše dve decimale (npr. 2500,50) i ulaze u izveštaj o taksama IJO.',
    'Aktivnost se može završiti kada su svi IJO označeni i sve takse unete.',
  ].join('\n'),
  A8: 'Izradite projekat za građevinsku dozvolu ili idejni projekat (PGD/IDP) i priložite ga. Završetak pokreće izradu PZI (A9).',
  A9: [
    'Izradite projekat za izvođenje (PZI), priložite ga i unesite dužinu trase u metrima iz izveštaja PZI.',
    'Završetkom PZI odlazi na tehničku kontrolu (A9.1).',
  ].join('\n'),
  'A9.1': "Nadzor sprovodi tehničku kontrolu PZI. 'Bez primedbi' završava kontrolu; 'Sa primedbama' uz fajl primedbi vraća A9 na doradu.",
  A10: 'Kada su završeni uslovi IJO (A7) i tehnička kontrola PZI (A9.1), podnesite zahtev za rešenje po članu 145 (ROOI) ili za građevinsku dozvolu kroz CEOP i unesite datum podnošenja.',
  'A10.1': [
    'Unesite datum izdavanja rešenja ili dozvole; rešenje možete priložiti.',
    "'Dobijeni ROOI ili GD' završava A11 i pokreće prijavu radova. 'Odbijen PGD ili IDP' vraća A8 na doradu.",
  ].join('\n'),
  A11: 'Aktivnost završava sistem kada je u A10.1 dobijeno rešenje o odobrenju izvođenja radova ili građevinska dozvola.',
  A12: 'Prijavite početak radova: unesite datum prijave i dužinu trase u metrima iz prijave; prijavu možete priložiti. Završetak pokreće isporuku opreme (A13) i radove na trasi (A14).',
  A13: [
    'Isporučite opremu školama i unesite datum isporuke.',
    'Stavke inventara po lokaciji vode se na stranici Inventar; prijem po lokaciji potvrđuje naručilac na kartici provere inventara.',
  ].join('\n'),
  A14: 'Izvodite radove na trasi i prilažite građevinski dnevnik i ostalu dokumentaciju. Aktivnost nema rok (klizno); završetkom radovi odlaze na kontrolu (A14.1).',
  'A14.1': "Nadzor kontroliše izvedene radove. 'Bez primedbi' završava kontrolu; 'Sa primedbama' uz fajl primedbi vraća A14 izvođaču.",
  A15: 'Montirajte i povežite opremu i priložite dokumentaciju o montaži. Završetak pokreće geodetski snimak (A16) i unos dužine izgrađene trase (A17).',
  A16: 'Priložite geodetski snimak izvedenog stanja.',
  A17: 'Unesite dužinu izgrađene trase u metrima. Dužina ulazi u izveštaj o dužinama trase.',
  A18: 'Unesite datum završetka radova. Završetak pokreće izradu projekta izvedenog objekta (A19) i merenja (A20).',
  A19: 'Izradite projekat izvedenog objekta (PIO) i priložite ga.',
  A20: 'Priložite izveštaje merenja optičkih kablova, po jedan fajl za svaku od pet vrsta merenja. Aktivnost nema rok (klizno).',
  A21: 'Kada su PIO (A19) i merenja (A20) završeni, podnesite zahtev za tehnički pregled i priložite ga.',
  A22: 'Sprovedite tehnički pregled i priložite izveštaj komisije.',
  A23: 'Otklonite nedostatke iz izveštaja komisije i priložite dokaze o otklanjanju.',
  'A23.1': "Nadzor proverava otklonjene nedostatke. 'Bez primedbi' završava kontrolu; 'Sa primedbama' vraća A23 izvođaču.",
  A24: "Nadzor daje predlog za izdavanje upotrebne dozvole. 'Bez primedbi' pokreće zahtev (A25); 'Sa primedbama' vraća A23 na otklanjanje nedostataka.",
  A25: 'Podnesite zahtev za upotrebnu dozvolu kroz CEOP i unesite datum podnošenja.',
  A26: 'Priložite izdatu upotrebnu dozvolu. Završetak pokreće unos broja priključenih domaćinstava (A26.1) i primopredaju mreže operateru (A27).',
  'A26.1': [
    'Unesite broj priključenih domaćinstava (obavezno), pa priložite dokaz.',
    "'Da' potvrđuje broj i završava aktivnost; 'Ne' vraća A26 na doradu.",
  ].join('\n'),
  A27: 'Predajte izgrađenu mrežu operateru i priložite zapisnik o primopredaji.',
  'A27.1': [
    'Unesite broj povezanih škola (obavezno), pa priložite dokaz.',
    "'Da' potvrđuje broj i završava aktivnost; 'Ne' vraća A27 na doradu.",
  ].join('\n'),
};
