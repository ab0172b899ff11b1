import type { TopicPriority, TopicStatus } from '@trasa/domain';
import { and, eq, sql } from 'drizzle-orm';
import { groups, users } from '../db/schema.js';
import { clusters, topicComments, topics } from '../db/schema-clusters.js';
import type { Executor } from '../platform/database.js';

/**
 * The demo's open issues (spec 2 "Topics") on the demo clusters (seed/demoClusters.ts): open and closed
 * ones, with comments by the responsible groups' people (seed/demo.ts) and one hand-over after another.
 * Times are relative to the seeding day. A topic whose cluster, group or author is missing is left out.
 * Running it twice adds nothing: a topic's natural key is its cluster and description.
 */

type DemoComment = {
  /** The author's e-mail (a member of the group responsible at the time). */
  author: string;
  tekst: string;
  /** Hands the topic over to this group (noviOdgovoran). */
  handOverTo?: string;
  daysAgo: number;
};

type DemoTopic = {
  cluster: string;
  opis: string;
  /** The group first responsible; a hand-over in the comments moves it. */
  odgovoran: string;
  prioritet: TopicPriority;
  status: TopicStatus;
  /** Deadline in days from the seeding day (negative: past), or none. */
  rokDays: number | null;
  createdBy: string;
  daysAgo: number;
  komentari?: DemoComment[];
  /** When a closed topic was closed. */
  closedDaysAgo?: number;
};

const OPTIKA = 'Optika Gradnja d.o.o.';
const OPTIKA_ZAPAD = 'Optika Gradnja - Region Zapad';
const NADZOR = 'Nadzor Inženjering d.o.o.';
const KABL = 'Kabl Mreže d.o.o.';
const KABL_JUG = 'Kabl Mreže - Region Jug';
const MERIDIJAN = 'Projektni biro Meridijan';
const MERIDIJAN_TRASE = 'Meridijan - Odeljenje za trase';

export const DEMO_TOPICS: DemoTopic[] = [
  {
    cluster: 'Čajetina 1 - Sirogojno',
    opis: 'Oštećen optički kabl kod škole u Sirogojnu posle radova na putu. Potrebna hitna sanacija.',
    odgovoran: OPTIKA,
    prioritet: 'visok',
    status: 'otvoren',
    rokDays: 4,
    createdBy: 'vladimir.ciric@nadzor-inzenjering.rs',
    daysAgo: 3,
    komentari: [
      { author: 'stefan.markovic@optikagradnja.rs', tekst: 'Ekipa izlazi na teren sutra ujutru.', daysAgo: 2 },
      { author: 'zoran.ilic@optikagradnja.rs', tekst: 'Nabavljen kabl za zamenu deonice od 120 m.', daysAgo: 1 },
    ],
  },
  {
    cluster: 'Čajetina 1 - Sirogojno',
    opis: 'Potrebna saglasnost nadzora za izmenu trase kroz Rožanstvo (zaobilaženje privatne parcele).',
    odgovoran: NADZOR,
    prioritet: 'srednji',
    status: 'otvoren',
    rokDays: 10,
    createdBy: 'stefan.markovic@optikagradnja.rs',
    daysAgo: 6,
    komentari: [
      {
        author: 'vladimir.ciric@nadzor-inzenjering.rs',
        tekst: 'Saglasnost je data; predajemo izvođaču da izmeni trasu i dostavi novi snimak.',
        handOverTo: OPTIKA,
        daysAgo: 4,
      },
    ],
  },
  {
    cluster: 'Užice 1 - Kremna',
    opis: 'Nedostaje dozvola za prolaz kroz šumu kod Mokre Gore.',
    odgovoran: OPTIKA_ZAPAD,
    prioritet: 'visok',
    status: 'otvoren',
    rokDays: -2,
    createdBy: 'vladimir.ciric@nadzor-inzenjering.rs',
    daysAgo: 9,
  },
  {
    cluster: 'Užice 2 - Stapari',
    opis: 'Kašnjenje isporuke kablova za Stapare.',
    odgovoran: KABL,
    prioritet: 'srednji',
    status: 'zatvoren',
    rokDays: -5,
    createdBy: 'bojan.lazic@meridijan.rs',
    daysAgo: 20,
    komentari: [
      { author: 'marija.zivkovic@kablmreze.rs', tekst: 'Dobavljač je pomerio isporuku za sledeću nedelju.', daysAgo: 18 },
      { author: 'aleksandar.popovic@kablmreze.rs', tekst: 'Isporuka je stigla, radovi su nastavljeni.', daysAgo: 12 },
    ],
    closedDaysAgo: 11,
  },
  {
    cluster: 'Bajina Bašta 1 - Perućac',
    opis: 'Otežan pristup šahtu kod brane Perućac; potrebna najava upravi elektrane.',
    odgovoran: KABL_JUG,
    prioritet: 'nizak',
    status: 'otvoren',
    rokDays: 21,
    createdBy: 'nikola.stevanovic@kablmreze.rs',
    daysAgo: 2,
  },
  {
    cluster: 'Ivanjica - Kušići',
    opis: 'Revizija projekta trase za Deviće posle primedbi opštine.',
    odgovoran: MERIDIJAN_TRASE,
    prioritet: 'srednji',
    status: 'zatvoren',
    rokDays: null,
    createdBy: 'dragan.savic@kablmreze.rs',
    daysAgo: 30,
    komentari: [{ author: 'srdjan.nedeljkovic@meridijan.rs', tekst: 'Revidirani projekat je predat opštini.', daysAgo: 25 }],
    closedDaysAgo: 24,
  },
  {
    cluster: 'Raška - Jošanička Banja',
    opis: 'Неусаглашеност изведеног стања са пројектом у Рудници: кабл положен плиће од 0,8 m.',
    odgovoran: NADZOR,
    prioritet: 'visok',
    status: 'otvoren',
    rokDays: 7,
    createdBy: 'zoran.ilic@optikagradnja.rs',
    daysAgo: 5,
    komentari: [
      {
        author: 'tamara.scekic@nadzor-inzenjering.rs',
        tekst: 'Записник са терена је састављен. Извођач треба да продуби ров на три деонице.',
        handOverTo: OPTIKA,
        daysAgo: 3,
      },
    ],
  },
  {
    cluster: 'Čajetina 2 - Mačkat',
    opis: 'Dopuna projekta za priključak škole u Mačkatu.',
    odgovoran: MERIDIJAN,
    prioritet: 'nizak',
    status: 'otvoren',
    rokDays: 14,
    createdBy: 'jovana.kostic@optikagradnja.rs',
    daysAgo: 1,
  },
];

const DAY_MS = 86_400_000;

/** The seeding day plus `days`, at a round hour so deadlines read well (14:00 UTC). */
function dayAt(now: number, days: number, hour = 14): Date {
  const d = new Date(now + days * DAY_MS);
  d.setUTCHours(hour, 0, 0, 0);
  return d;
}

export type DemoTopicsResult = { topics: number; comments: number };

/** Adds the demo topics that are missing, with their comments, in one transaction. */
export async function seedDemoTopics(db: Executor, now = Date.now()): Promise<DemoTopicsResult> {
  return db.transaction(async (tx) => {
    const groupIds = new Map(
      (await tx.select({ id: groups.id, naziv: groups.naziv }).from(groups).where(sql`not ${groups.reserved}`)).map(
        (g) => [g.naziv, g.id] as const,
      ),
    );
    const userIds = new Map((await tx.select({ id: users.id, email: users.email }).from(users)).map((u) => [u.email, u.id] as const));
    const clusterIds = new Map(
      (await tx.select({ id: clusters.id, naziv: clusters.naziv }).from(clusters)).map((c) => [c.naziv, c.id] as const),
    );

    let newTopics = 0;
    let newComments = 0;
    for (const t of DEMO_TOPICS) {
      const clusterId = clusterIds.get(t.cluster);
      const groupId = groupIds.get(t.odgovoran);
      const createdBy = userIds.get(t.createdBy);
      const comments = (t.komentari ?? []).map((c) => ({
        ...c,
        authorId: userIds.get(c.author),
        handOverId: c.handOverTo ? groupIds.get(c.handOverTo) : undefined,
      }));
      const complete = comments.every((c) => c.authorId && (!c.handOverTo || c.handOverId));
      if (!clusterId || !groupId || !createdBy || !complete) continue;
      const [existing] = await tx
        .select({ id: topics.id })
        .from(topics)
        .where(and(eq(topics.clusterId, clusterId), eq(topics.opis, t.opis)))
        .limit(1);
      if (existing) continue;

      const createdAt = dayAt(now, -t.daysAgo, 8);
      let responsible = groupId;
      const commentRows = comments.map((c, i) => {
        responsible = c.handOverId ?? responsible;
        return { tekst: c.tekst, createdBy: c.authorId, groupId: responsible, createdAt: dayAt(now, -c.daysAgo, 9 + i) };
      });
      const lastChange = t.status === 'zatvoren' && t.closedDaysAgo !== undefined ? dayAt(now, -t.closedDaysAgo, 15) : null;
      const updatedAt = lastChange ?? commentRows.at(-1)?.createdAt ?? createdAt;
      const [row] = await tx
        .insert(topics)
        .values({
          clusterId,
          opis: t.opis,
          groupId: responsible,
          rok: t.rokDays === null ? null : dayAt(now, t.rokDays),
          prioritet: t.prioritet,
          status: t.status,
          createdBy,
          createdAt,
          updatedAt,
        })
        .returning({ id: topics.id });
      if (!row) continue;
      if (commentRows.length > 0) await tx.insert(topicComments).values(commentRows.map((c) => ({ ...c, topicId: row.id })));
      newTopics++;
      newComments += commentRows.length;
    }
    return { topics: newTopics, comments: newComments };
  });
}
